//! Hand-written types shaped like pktc's generated code: a message, a
//! recursive message and a union.

#![allow(dead_code)]

use pkt_runtime::{list, Decode, DecodeError, Encode, Reader, Writer};

/// `message Chat { from: string; text: string; tags: list<string>; }`
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chat {
    pub from: String,
    pub text: String,
    pub tags: Vec<String>,
}

impl Encode for Chat {
    fn encoded_len(&self) -> usize {
        4 + self.from.encoded_len() + self.text.encoded_len() + list::encoded_len(&self.tags)
    }
    fn encode_raw(&self, w: &mut Writer<'_>) {
        let mark = w.begin_len();
        w.put_string(&self.from);
        w.put_string(&self.text);
        list::encode(&self.tags, w);
        w.end_len(mark);
    }
}

impl Decode for Chat {
    const MIN_ENCODED_LEN: usize = 4;
    fn placeholder() -> Self {
        Self::default()
    }
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let mut v = Chat::default();
        v.decode_into_raw(r)?;
        Ok(v)
    }
    fn decode_into_raw(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        let mut body = r.message_body()?;
        if body.is_empty() {
            self.from.clear();
        } else {
            body.read_string_into(&mut self.from)?;
        }
        if body.is_empty() {
            self.text.clear();
        } else {
            body.read_string_into(&mut self.text)?;
        }
        if body.is_empty() {
            self.tags.clear();
        } else {
            list::decode_into(&mut self.tags, &mut body)?;
        }
        body.rest();
        r.finish(body);
        Ok(())
    }
}

/// `message Node { children: list<Node>; }`
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    pub children: Vec<Node>,
}

impl Node {
    /// A chain `depth` messages deep.
    pub fn chain(depth: usize) -> Node {
        let mut n = Node::default();
        for _ in 1..depth {
            n = Node { children: vec![n] };
        }
        n
    }
}

impl Encode for Node {
    fn encoded_len(&self) -> usize {
        4 + list::encoded_len(&self.children)
    }
    fn encode_raw(&self, w: &mut Writer<'_>) {
        let mark = w.begin_len();
        list::encode(&self.children, w);
        w.end_len(mark);
    }
}

impl Decode for Node {
    const MIN_ENCODED_LEN: usize = 4;
    fn placeholder() -> Self {
        Self::default()
    }
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let mut body = r.message_body()?;
        let children = if body.is_empty() {
            Vec::new()
        } else {
            list::decode(&mut body)?
        };
        r.finish(body);
        Ok(Node { children })
    }
}

/// `union Packet : u8 { 1 Ping(u32); 2 Chat(Chat); }`
#[derive(Clone, Debug, PartialEq)]
pub enum Packet {
    Ping(u32),
    Chat(Chat),
    Unknown { tag: u16, body: Vec<u8> },
}

impl Encode for Packet {
    fn encoded_len(&self) -> usize {
        5 + match self {
            Packet::Ping(v) => v.encoded_len(),
            Packet::Chat(v) => v.encoded_len(),
            Packet::Unknown { body, .. } => body.len(),
        }
    }
    fn encode_raw(&self, w: &mut Writer<'_>) {
        let mark = w.begin_len();
        match self {
            Packet::Ping(v) => {
                w.put_u8(1);
                v.encode_raw(w);
            }
            Packet::Chat(v) => {
                w.put_u8(2);
                v.encode_raw(w);
            }
            Packet::Unknown { tag, body } => {
                w.put_u8(*tag as u8);
                w.put_slice(body);
            }
        }
        w.end_len(mark);
    }
}

impl Decode for Packet {
    const MIN_ENCODED_LEN: usize = 5;
    fn placeholder() -> Self {
        Packet::Ping(0)
    }
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let (tag, mut body) = r.union_frame(1)?;
        let v = match tag {
            1 => Packet::Ping(u32::decode_raw(&mut body)?),
            2 => Packet::Chat(Chat::decode_raw(&mut body)?),
            _ => Packet::Unknown {
                tag,
                body: body.rest().to_vec(),
            },
        };
        r.finish_variant(&body, tag)?;
        r.finish(body);
        Ok(v)
    }
}

pub fn chat(from: &str, text: &str, tags: &[&str]) -> Chat {
    Chat {
        from: from.into(),
        text: text.into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
    }
}
