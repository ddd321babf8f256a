//! Serde support for arrays of any length (feature `serde`).
//!
//! serde implements `Serialize` and `Deserialize` for arrays of up to 32
//! elements only. Code generated with serde derives puts
//! `#[serde(with = "::pkt_runtime::serde_array")]` on fields (and union
//! variants) whose type is an array longer than that. The array is written as
//! a tuple of `N` elements, the way serde writes the short arrays, so both
//! look the same in every format (a JSON array, for example).
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Key {
//!     #[serde(with = "pkt_runtime::serde_array")]
//!     bytes: [u8; 64],
//! }
//!
//! let key = Key { bytes: [7; 64] };
//! let json = serde_json::to_string(&key).unwrap();
//! assert_eq!(serde_json::from_str::<Key>(&json).unwrap(), key);
//! ```
//!
//! The element type must itself implement the serde traits, so an array of
//! long arrays (`[[u8; 64]; 2]`) or a long array inside a list, map or
//! optional is not covered by this helper.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{Deserializer, Error, SeqAccess, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

/// Serializes `array` as a tuple of `N` elements.
pub fn serialize<S, T, const N: usize>(array: &[T; N], serializer: S) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    T: Serialize,
{
    let mut tuple = serializer.serialize_tuple(N)?;
    for item in array {
        tuple.serialize_element(item)?;
    }
    tuple.end()
}

/// Deserializes a tuple of exactly `N` elements into an array.
pub fn deserialize<'de, D, T, const N: usize>(deserializer: D) -> Result<[T; N], D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_tuple(N, ArrayVisitor(PhantomData))
}

struct ArrayVisitor<T, const N: usize>(PhantomData<fn() -> T>);

impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for ArrayVisitor<T, N> {
    type Value = [T; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an array of {N} elements")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[T; N], A::Error> {
        let mut error = None;
        let items: [Option<T>; N] = core::array::from_fn(|i| {
            if error.is_some() {
                return None;
            }
            match seq.next_element() {
                Ok(Some(item)) => Some(item),
                Ok(None) => {
                    error = Some(A::Error::invalid_length(i, &self));
                    None
                }
                Err(e) => {
                    error = Some(e);
                    None
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::invalid_length(N + 1, &self));
        }
        // Every element is `Some`: a missing one returned above.
        Ok(items.map(|item| item.expect("every element was deserialized")))
    }
}
