//! Values of every recursive shape in `schemas/`, nested as deep as asked,
//! for the stack tests and the `stack_probe` example.

use pkt_runtime::{Decode, Encode, Viewable};

use crate::test::amplify::{BigRec, BigTree, BigTreeNode, DeepBig};
use crate::test::arrays::{ArrayForest, ArrayNode, ArrayTree};
use crate::test::everything::{BinaryExpr, CallExpr, Expr, LinkedNode, TreeNode};

/// The recursive shapes, by name.
pub const SHAPES: &[&str] = &[
    "DeepBig",
    "LinkedNode",
    "TreeNode",
    "BinaryExpr",
    "CallExpr",
    "ArrayTree",
    "ArrayForest",
];

/// Messages and unions one level of each shape nests (what `max_depth`
/// counts).
pub fn depth_per_level(shape: &str) -> u32 {
    match shape {
        "BinaryExpr" | "CallExpr" | "BigRec" | "BigTree" | "ArrayForest" => 2,
        _ => 1,
    }
}

/// What a test does with a value.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    Decode,
    DecodeInto,
    Encode,
    /// `view`, then the owned value of the view (`to_owned`).
    View,
}

/// A value of `shape` whose messages and unions nest `levels` levels deep,
/// built and torn down without recursion.
pub enum Deep {
    DeepBig(Box<DeepBig>),
    BigRec(Box<BigRec>),
    BigTree(Box<BigTree>),
    LinkedNode(LinkedNode),
    TreeNode(TreeNode),
    Expr(Expr),
    /// A 47 KiB message at every level, through a list.
    ArrayTree(Box<ArrayTree>),
    /// A union whose 32 KiB variant holds a list of the union.
    ArrayForest(Box<ArrayForest>),
}

impl Deep {
    pub fn new(shape: &str, levels: u32) -> Deep {
        match shape {
            "DeepBig" => {
                let mut v = Box::<DeepBig>::default();
                for i in 1..levels {
                    let mut parent = Box::<DeepBig>::default();
                    parent.arr[0] = u64::from(i);
                    parent.child = Some(v);
                    v = parent;
                }
                Deep::DeepBig(v)
            }
            "BigRec" => {
                let mut v = Box::<BigRec>::default();
                for _ in 1..levels.div_ceil(2) {
                    let mut parent = Box::<BigRec>::default();
                    parent.child = Some(v);
                    v = parent;
                }
                Deep::BigRec(v)
            }
            "BigTree" => {
                let mut v = Box::<BigTree>::default();
                for _ in 1..levels.div_ceil(2) {
                    v = Box::new(BigTree::Node(Box::new(BigTreeNode { tree: Some(v) })));
                }
                Deep::BigTree(v)
            }
            "LinkedNode" => {
                let mut v = LinkedNode::default();
                for i in 1..levels {
                    v = LinkedNode {
                        value: i as i32,
                        next: Some(Box::new(v)),
                    };
                }
                Deep::LinkedNode(v)
            }
            "TreeNode" => {
                let mut v = TreeNode::default();
                for i in 1..levels {
                    v = TreeNode {
                        value: i as i32,
                        children: vec![v],
                    };
                }
                Deep::TreeNode(v)
            }
            "BinaryExpr" => {
                let mut v = Expr::Literal(1);
                for _ in 1..levels.div_ceil(2) {
                    v = Expr::Binary(Box::new(BinaryExpr {
                        lhs: Some(Box::new(v)),
                        ..BinaryExpr::default()
                    }));
                }
                Deep::Expr(v)
            }
            "CallExpr" => {
                let mut v = Expr::Literal(1);
                for _ in 1..levels.div_ceil(2) {
                    v = Expr::Call(CallExpr {
                        function: "f".into(),
                        args: vec![v],
                    });
                }
                Deep::Expr(v)
            }
            "ArrayTree" => {
                let mut v = Box::<ArrayTree>::default();
                v.names[0] = "leaf".into();
                for i in 1..levels {
                    let mut parent = Box::<ArrayTree>::default();
                    parent.names[1999] = format!("level {i}");
                    parent.kids.push(*v);
                    v = parent;
                }
                Deep::ArrayTree(v)
            }
            "ArrayForest" => {
                let mut v = Box::new(ArrayForest::Leaf(7));
                for i in 1..levels.div_ceil(2) {
                    let mut node = ArrayNode::default();
                    node.slots[3999] = Some(i);
                    node.kids.push(*v);
                    v = Box::new(ArrayForest::Node(node));
                }
                Deep::ArrayForest(v)
            }
            other => panic!("no shape {other}"),
        }
    }

    /// The encoding, written without checking the depth.
    pub fn encode_unchecked(&self) -> Vec<u8> {
        match self {
            Deep::DeepBig(v) => v.encode_to_vec_unchecked(),
            Deep::BigRec(v) => v.encode_to_vec_unchecked(),
            Deep::BigTree(v) => v.encode_to_vec_unchecked(),
            Deep::LinkedNode(v) => v.encode_to_vec_unchecked(),
            Deep::TreeNode(v) => v.encode_to_vec_unchecked(),
            Deep::Expr(v) => v.encode_to_vec_unchecked(),
            Deep::ArrayTree(v) => v.encode_to_vec_unchecked(),
            Deep::ArrayForest(v) => v.encode_to_vec_unchecked(),
        }
    }

    /// Runs `op` on this value (encode) or its encoding `bytes` (decode,
    /// decode into a default value) and returns whether it succeeded.
    pub fn run(&self, op: Op, bytes: &[u8]) -> Result<(), String> {
        // Out of line, so that the frames of the other shapes' operations
        // do not add to the stack measured for this one.
        #[inline(never)]
        fn go<T: Encode + Decode + Default + Viewable>(
            v: &T,
            op: Op,
            bytes: &[u8],
        ) -> Result<(), String> {
            match op {
                Op::Decode => T::decode(bytes).map(forget_deep).map_err(|e| e.to_string()),
                Op::DecodeInto => {
                    let mut t = T::default();
                    let r = t.decode_into(bytes).map_err(|e| e.to_string());
                    forget_deep(t);
                    r
                }
                Op::Encode => v.encode_to_vec().map(drop).map_err(|e| e.to_string()),
                Op::View => {
                    pkt_runtime::view::view::<T::View<'_>>(bytes, pkt_runtime::Limits::DEFAULT)
                        .map(|view| forget_deep(pkt_runtime::View::into_owned(view)))
                        .map_err(|e| e.to_string())
                }
            }
        }
        match self {
            Deep::DeepBig(v) => go(&**v, op, bytes),
            Deep::BigRec(v) => go(&**v, op, bytes),
            Deep::BigTree(v) => go(&**v, op, bytes),
            Deep::LinkedNode(v) => go(v, op, bytes),
            Deep::TreeNode(v) => go(v, op, bytes),
            Deep::Expr(v) => go(v, op, bytes),
            Deep::ArrayTree(v) => go(&**v, op, bytes),
            Deep::ArrayForest(v) => go(&**v, op, bytes),
        }
    }
}

/// Drops a decoded value. Values decoded within the depth limit are shallow
/// enough for the recursive drop.
fn forget_deep<T>(v: T) {
    drop(v);
}

impl Drop for Deep {
    /// Unlinks the chain level by level, so that dropping a value deeper
    /// than the stack allows does not recurse.
    fn drop(&mut self) {
        match self {
            Deep::DeepBig(v) => {
                let mut next = v.child.take();
                while let Some(mut n) = next {
                    next = n.child.take();
                }
            }
            Deep::BigRec(v) => {
                let mut next = v.child.take();
                while let Some(mut n) = next {
                    next = n.child.take();
                }
            }
            Deep::BigTree(v) => {
                // By reference: a `BigTree` moved by value is 32 KiB of stack.
                let subtree = |t: &mut BigTree| match t {
                    BigTree::Node(n) => n.tree.take(),
                    BigTree::Large(_) | BigTree::Unknown { .. } => None,
                };
                let mut next = subtree(v);
                while let Some(mut t) = next {
                    next = subtree(&mut t);
                }
            }
            Deep::LinkedNode(v) => {
                let mut next = v.next.take();
                while let Some(mut n) = next {
                    next = n.next.take();
                }
            }
            Deep::TreeNode(v) => {
                let mut next = std::mem::take(&mut v.children);
                while let Some(mut n) = next.pop() {
                    next.append(&mut n.children);
                }
            }
            Deep::ArrayTree(v) => {
                let mut next = std::mem::take(&mut v.kids);
                while let Some(mut n) = next.pop() {
                    next.append(&mut n.kids);
                }
            }
            Deep::ArrayForest(v) => {
                // By reference: each level is 32 KiB.
                let kids = |t: &mut ArrayForest| match t {
                    ArrayForest::Node(n) => std::mem::take(&mut n.kids),
                    _ => Vec::new(),
                };
                let mut next = kids(v);
                while let Some(mut t) = next.pop() {
                    next.append(&mut kids(&mut t));
                }
            }
            Deep::Expr(v) => {
                let mut next = vec![std::mem::take(v)];
                while let Some(e) = next.pop() {
                    match e {
                        Expr::Binary(mut b) => {
                            next.extend(b.lhs.take().map(|x| *x));
                            next.extend(b.rhs.take().map(|x| *x));
                        }
                        Expr::Call(mut c) => next.append(&mut c.args),
                        _ => {}
                    }
                }
            }
        }
    }
}
