//! `@max` limits inside a type: on the elements of lists and arrays and on
//! the keys and values of maps, at any depth (`list<string @max(24)>
//! @max(8)`, `map<string @max(32), bytes @max(256)>`).
//!
//! A field's own `@max` is checked by [`Reader::peek_max`] and
//! [`check_max`](crate::check_max). A field whose type has limits inside
//! takes this module's path instead, with the whole type's limits described
//! by a marker type ([`Bound`]): [`Len<N>`] for a string, bytes, list or
//! map of at most `N` bytes or elements, [`List<N, E>`] for a list of at
//! most `N` elements each within `E` (`N` = `u32::MAX` when the list has no
//! limit of its own, since a count cannot exceed it), [`Array<E>`],
//! [`Map<N, K, V>`], [`Opt<B>`] for an optional whose value is within `B`,
//! and [`Any`] for a part without limits. Generated code names the marker
//! (`List<8, Len<24>>`) and calls [`check`], [`field`], [`field_into`] and
//! [`view_field`] (for a union variant's payload [`variant`],
//! [`variant_into`], [`view_variant`] and [`decode_variant`]).
//!
//! Every limit is checked where a field's own is: a decoder checks each
//! element's length or count prefix before anything else of the element is
//! read ([`DecodeErrorKind::FieldTooLong`] at the prefix's offset), and the
//! encoders' check refuses the first part over its limit in wire order
//! (interleaved with the nested messages' checks, as the C# encoders meet
//! them while writing). Errors name the part after the field's qualified
//! name: `game.net.Chat.mentions[]` for an element, `game.net.Profile.tags[key]`
//! and `game.net.Profile.tags[value]` for a map's keys and values, nested as
//! deep as the type (`game.net.M.f[][key]`).

use core::marker::PhantomData;
use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::reader::Reader;
use crate::traits::{array_from_fn, Decode, Encode};
use crate::view::{self, View};

/// Where a bounded part of a value lies, for the errors that name it: the
/// field (`Chat.mentions`) and the steps from it into the value (`[]`,
/// `[key]`, `[value]`). Built on the stack as the decoder descends; the
/// name is put together only for an error.
#[derive(Clone, Copy, Debug)]
pub struct Place<'p> {
    field: &'static str,
    step: Option<(&'p Place<'p>, &'static str)>,
}

impl<'p> Place<'p> {
    /// The field (or union variant) itself, `Type.field`.
    pub fn field(field: &'static str) -> Place<'static> {
        Place { field, step: None }
    }

    fn step(&'p self, step: &'static str) -> Place<'p> {
        Place {
            field: self.field,
            step: Some((self, step)),
        }
    }

    /// Each element of the list or array here.
    pub fn element(&'p self) -> Place<'p> {
        self.step("[]")
    }

    /// Each key of the map here.
    pub fn key(&'p self) -> Place<'p> {
        self.step("[key]")
    }

    /// Each value of the map here.
    pub fn value(&'p self) -> Place<'p> {
        self.step("[value]")
    }

    /// The name errors give: `game.net.Chat.mentions[]`.
    pub fn name(&self) -> Cow<'static, str> {
        let Some(_) = self.step else {
            return Cow::Borrowed(self.field);
        };
        let mut steps = Vec::new();
        let mut at = self;
        while let Some((parent, step)) = at.step {
            steps.push(step);
            at = parent;
        }
        let mut name = String::from(self.field);
        name.extend(steps.iter().rev().copied());
        Cow::Owned(name)
    }
}

/// [`DecodeErrorKind::FieldTooLong`] naming `place` when the length or
/// count prefix about to be read (after an option flag of 1, if
/// `optional`) is over `max`; as [`Reader::peek_max`] for a field.
#[inline]
fn peek(r: &Reader<'_>, max: u32, place: Place<'_>) -> Result<(), DecodeError> {
    match r.peek_len(false) {
        Some((len, at)) if len > max as usize => Err(too_long_to_decode(place, len, max, at)),
        _ => Ok(()),
    }
}

#[cold]
fn too_long_to_decode(place: Place<'_>, len: usize, max: u32, at: usize) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::FieldTooLong {
            field: place.name(),
            len,
            max: max as usize,
        },
        at,
    )
}

/// The encoders' check of one length or count against `max`.
#[inline]
fn check_len(len: usize, max: u32, place: Place<'_>) -> Result<(), EncodeError> {
    if len > max as usize {
        Err(too_long_to_encode(place, len, max))
    } else {
        Ok(())
    }
}

#[cold]
fn too_long_to_encode(place: Place<'_>, len: usize, max: u32) -> EncodeError {
    EncodeError::field_too_long(place.name(), len, max as usize)
}

/// The limits of a value of type `T`, described by the implementing marker
/// type; see the [module documentation](self).
pub trait Bound<T> {
    /// The encoders' check of `value`: its limits and the nesting of the
    /// messages and unions inside it (as [`Encode::check_at`]), in wire
    /// order.
    fn check(value: &T, place: Place<'_>, depth: u32, max_depth: u32) -> Result<(), EncodeError>;

    /// Decodes a value, checking each limit before the part it bounds.
    fn decode(r: &mut Reader<'_>, place: Place<'_>) -> Result<T, DecodeError>;

    /// [`decode`](Bound::decode) into an existing value, reusing it as
    /// [`Decode::decode_into_raw`] does.
    fn decode_into(value: &mut T, r: &mut Reader<'_>, place: Place<'_>) -> Result<(), DecodeError>;
}

/// The limits of a view `V`, as [`Bound`] has them for the owned type.
pub trait ViewBound<'a, V> {
    /// Views a value, with the checks and errors of [`Bound::decode`].
    fn view(r: &mut Reader<'a>, place: Place<'_>) -> Result<V, DecodeError>;
}

/// No limit on this part (nor inside it).
pub struct Any;

/// A string, bytes, list or map of at most `N` bytes or elements, with no
/// limit inside.
pub struct Len<const N: u32>;

/// A list of at most `N` elements, each within `E`.
pub struct List<const N: u32, E>(PhantomData<E>);

/// An array whose elements are each within `E`.
pub struct Array<E>(PhantomData<E>);

/// A map of at most `N` entries, each key within `K` and each value within
/// `V`.
pub struct Map<const N: u32, K, V>(PhantomData<(K, V)>);

/// An optional whose value, when present, is within `B`.
pub struct Opt<B>(PhantomData<B>);

impl<T: Encode + Decode> Bound<T> for Any {
    #[inline]
    fn check(value: &T, _: Place<'_>, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
        value.check_at(depth, max_depth)
    }
    #[inline]
    fn decode(r: &mut Reader<'_>, _: Place<'_>) -> Result<T, DecodeError> {
        T::decode_raw(r)
    }
    #[inline]
    fn decode_into(value: &mut T, r: &mut Reader<'_>, _: Place<'_>) -> Result<(), DecodeError> {
        value.decode_into_raw(r)
    }
}

impl<'a, V: View<'a>> ViewBound<'a, V> for Any {
    #[inline]
    fn view(r: &mut Reader<'a>, _: Place<'_>) -> Result<V, DecodeError> {
        V::view_raw(r)
    }
}

/// `Len<N>` for the owned types it bounds, each counted by `$len`.
macro_rules! len_bound {
    ($([$($g:tt)*] $t:ty => $len:expr;)*) => {$(
        impl<$($g)* const N: u32> Bound<$t> for Len<N> {
            #[inline]
            fn check(value: &$t, place: Place<'_>, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
                check_len($len(value), N, place)?;
                value.check_at(depth, max_depth)
            }
            #[inline]
            fn decode(r: &mut Reader<'_>, place: Place<'_>) -> Result<$t, DecodeError> {
                peek(r, N, place)?;
                <$t as Decode>::decode_raw(r)
            }
            #[inline]
            fn decode_into(value: &mut $t, r: &mut Reader<'_>, place: Place<'_>) -> Result<(), DecodeError> {
                peek(r, N, place)?;
                value.decode_into_raw(r)
            }
        }
    )*};
}

len_bound! {
    [] String => String::len;
    [T: Encode + Decode,] Vec<T> => Vec::len;
    [K: Encode + Decode + Ord, V: Encode + Decode,] BTreeMap<K, V> => BTreeMap::len;
}

impl<'a, V: View<'a>, const N: u32> ViewBound<'a, V> for Len<N> {
    #[inline]
    fn view(r: &mut Reader<'a>, place: Place<'_>) -> Result<V, DecodeError> {
        peek(r, N, place)?;
        V::view_raw(r)
    }
}

impl<T: Encode + Decode, E: Bound<T>, const N: u32> Bound<Vec<T>> for List<N, E> {
    fn check(
        value: &Vec<T>,
        place: Place<'_>,
        depth: u32,
        max_depth: u32,
    ) -> Result<(), EncodeError> {
        check_len(value.len(), N, place)?;
        let each = place.element();
        value
            .iter()
            .try_for_each(|v| E::check(v, each, depth, max_depth))
    }

    fn decode(r: &mut Reader<'_>, place: Place<'_>) -> Result<Vec<T>, DecodeError> {
        peek(r, N, place)?;
        // As `Decode for Vec<T>`: the count checked and charged, then the
        // elements one by one.
        let count = r.read_count(T::MIN_ENCODED_LEN, T::MEMORY)?;
        let each = place.element();
        let mut v = crate::list::with_capacity_for::<T>(count);
        for _ in 0..count {
            v.push(E::decode(r, each)?);
        }
        Ok(v)
    }

    fn decode_into(
        value: &mut Vec<T>,
        r: &mut Reader<'_>,
        place: Place<'_>,
    ) -> Result<(), DecodeError> {
        peek(r, N, place)?;
        // As `Decode::decode_vec_into`: existing elements reused.
        let count = r.read_count(T::MIN_ENCODED_LEN, T::MEMORY)?;
        let each = place.element();
        value.truncate(count);
        for item in value.iter_mut() {
            E::decode_into(item, r, each)?;
        }
        if T::MIN_ENCODED_LEN != 0 {
            crate::list::reserve_exact(value, count - value.len());
        }
        while value.len() < count {
            value.push(E::decode(r, each)?);
        }
        Ok(())
    }
}

impl<'a, V: View<'a>, E: ViewBound<'a, V>, const N: u32> ViewBound<'a, view::List<'a, V>>
    for List<N, E>
{
    fn view(r: &mut Reader<'a>, place: Place<'_>) -> Result<view::List<'a, V>, DecodeError> {
        peek(r, N, place)?;
        let each = place.element();
        view::List::view_with(r, |r| E::view(r, each))
    }
}

impl<T: Encode + Decode, E: Bound<T>, const N: usize> Bound<[T; N]> for Array<E> {
    fn check(
        value: &[T; N],
        place: Place<'_>,
        depth: u32,
        max_depth: u32,
    ) -> Result<(), EncodeError> {
        let each = place.element();
        value
            .iter()
            .try_for_each(|v| E::check(v, each, depth, max_depth))
    }

    fn decode(r: &mut Reader<'_>, place: Place<'_>) -> Result<[T; N], DecodeError> {
        let each = place.element();
        array_from_fn(|_| E::decode(r, each))
    }

    fn decode_into(
        value: &mut [T; N],
        r: &mut Reader<'_>,
        place: Place<'_>,
    ) -> Result<(), DecodeError> {
        let each = place.element();
        value
            .iter_mut()
            .try_for_each(|v| E::decode_into(v, r, each))
    }
}

impl<'a, V: View<'a>, E: ViewBound<'a, V>, const N: usize> ViewBound<'a, view::Array<V, N>>
    for Array<E>
{
    fn view(r: &mut Reader<'a>, place: Place<'_>) -> Result<view::Array<V, N>, DecodeError> {
        let each = place.element();
        array_from_fn(|_| E::view(r, each)).map(view::Array)
    }
}

/// A large array of variable-size elements, which a view keeps in the input
/// ([`view::ListArray`]).
impl<'a, V, E, const N: usize> ViewBound<'a, view::ListArray<'a, V, N>> for Array<E>
where
    V: View<'a> + Default,
    [V::Owned; N]: Decode,
    E: ViewBound<'a, V>,
{
    fn view(
        r: &mut Reader<'a>,
        place: Place<'_>,
    ) -> Result<view::ListArray<'a, V, N>, DecodeError> {
        let each = place.element();
        view::ListArray::view_with(r, |r| E::view(r, each))
    }
}

impl<K, V, KB, VB, const N: u32> Bound<BTreeMap<K, V>> for Map<N, KB, VB>
where
    K: Encode + Decode + Ord,
    V: Encode + Decode,
    KB: Bound<K>,
    VB: Bound<V>,
{
    fn check(
        value: &BTreeMap<K, V>,
        place: Place<'_>,
        depth: u32,
        max_depth: u32,
    ) -> Result<(), EncodeError> {
        check_len(value.len(), N, place)?;
        let (key, val) = (place.key(), place.value());
        value.iter().try_for_each(|(k, v)| {
            KB::check(k, key, depth, max_depth)?;
            VB::check(v, val, depth, max_depth)
        })
    }

    fn decode(r: &mut Reader<'_>, place: Place<'_>) -> Result<BTreeMap<K, V>, DecodeError> {
        let mut map = BTreeMap::new();
        Self::decode_into(&mut map, r, place)?;
        Ok(map)
    }

    fn decode_into(
        value: &mut BTreeMap<K, V>,
        r: &mut Reader<'_>,
        place: Place<'_>,
    ) -> Result<(), DecodeError> {
        peek(r, N, place)?;
        value.clear();
        let (key, val) = (place.key(), place.value());
        crate::impls::read_map_with(
            value,
            r,
            |r| KB::decode(r, key),
            |r| VB::decode(r, val),
            |v, r| VB::decode_into(v, r, val),
        )
    }
}

impl<'a, K, V, KB, VB, const N: u32> ViewBound<'a, view::Map<'a, K, V>> for Map<N, KB, VB>
where
    K: View<'a> + Ord + Copy,
    K::Owned: Ord,
    V: View<'a>,
    KB: ViewBound<'a, K>,
    VB: ViewBound<'a, V>,
{
    fn view(r: &mut Reader<'a>, place: Place<'_>) -> Result<view::Map<'a, K, V>, DecodeError> {
        peek(r, N, place)?;
        let (key, val) = (place.key(), place.value());
        view::Map::view_with(r, |r| KB::view(r, key), |r| VB::view(r, val))
    }
}

impl<T: Encode + Decode, B: Bound<T>> Bound<Option<T>> for Opt<B> {
    #[inline]
    fn check(
        value: &Option<T>,
        place: Place<'_>,
        depth: u32,
        max_depth: u32,
    ) -> Result<(), EncodeError> {
        match value {
            Some(v) => B::check(v, place, depth, max_depth),
            None => Ok(()),
        }
    }

    #[inline]
    fn decode(r: &mut Reader<'_>, place: Place<'_>) -> Result<Option<T>, DecodeError> {
        if r.read_option_flag()? {
            B::decode(r, place).map(Some)
        } else {
            Ok(None)
        }
    }

    #[inline]
    fn decode_into(
        value: &mut Option<T>,
        r: &mut Reader<'_>,
        place: Place<'_>,
    ) -> Result<(), DecodeError> {
        if !r.read_option_flag()? {
            *value = None;
            return Ok(());
        }
        match value {
            Some(v) => B::decode_into(v, r, place),
            None => {
                *value = Some(B::decode(r, place)?);
                Ok(())
            }
        }
    }
}

impl<'a, V: View<'a>, B: ViewBound<'a, V>> ViewBound<'a, Option<V>> for Opt<B> {
    #[inline]
    fn view(r: &mut Reader<'a>, place: Place<'_>) -> Result<Option<V>, DecodeError> {
        if r.read_option_flag()? {
            B::view(r, place).map(Some)
        } else {
            Ok(None)
        }
    }
}

/// The encoders' check of field `field` (`Type.field`) with limits inside
/// its type, described by `B`: in place of `check_max` and `check_at`.
#[inline]
pub fn check<T, B: Bound<T>>(
    field: &'static str,
    value: &T,
    depth: u32,
    max_depth: u32,
) -> Result<(), EncodeError> {
    B::check(value, Place::field(field), depth, max_depth)
}

/// Decodes field `field` with limits inside its type, described by `B`; as
/// [`Reader::field`], errors from inside that name no field name it.
#[inline]
pub fn field<T, B: Bound<T>>(r: &mut Reader<'_>, field: &'static str) -> Result<T, DecodeError> {
    B::decode(r, Place::field(field)).map_err(|e| e.in_field(field))
}

/// [`field`] into an existing value.
#[inline]
pub fn field_into<T, B: Bound<T>>(
    r: &mut Reader<'_>,
    value: &mut T,
    field: &'static str,
) -> Result<(), DecodeError> {
    B::decode_into(value, r, Place::field(field)).map_err(|e| e.in_field(field))
}

/// Views field `field` with limits inside its type, as [`field`] decodes it.
#[inline]
pub fn view_field<'a, V, B: ViewBound<'a, V>>(
    r: &mut Reader<'a>,
    field: &'static str,
) -> Result<V, DecodeError> {
    B::view(r, Place::field(field)).map_err(|e| e.in_field(field))
}

/// Decodes the payload of union variant `variant` (`Type.Variant`) with
/// limits inside its type, described by `B`. Errors from inside name no
/// field, as a variant's payload decoded without limits does.
#[inline]
pub fn variant<T, B: Bound<T>>(
    r: &mut Reader<'_>,
    variant: &'static str,
) -> Result<T, DecodeError> {
    B::decode(r, Place::field(variant))
}

/// [`variant`] into an existing payload.
#[inline]
pub fn variant_into<T, B: Bound<T>>(
    r: &mut Reader<'_>,
    value: &mut T,
    variant: &'static str,
) -> Result<(), DecodeError> {
    B::decode_into(value, r, Place::field(variant))
}

/// Views the payload of union variant `variant`, as [`variant`] decodes it.
#[inline]
pub fn view_variant<'a, V, B: ViewBound<'a, V>>(
    r: &mut Reader<'a>,
    variant: &'static str,
) -> Result<V, DecodeError> {
    B::view(r, Place::field(variant))
}

/// [`crate::decode_variant`] for a payload with limits inside its type:
/// decodes it (as [`variant`]) and stores `wrap(value)` in `slot`, in a
/// stack frame of its own.
#[inline(never)]
pub fn decode_variant<T, B: Bound<T>, U>(
    slot: &mut U,
    r: &mut Reader<'_>,
    name: &'static str,
    wrap: impl FnOnce(T) -> U,
) -> Result<(), DecodeError> {
    let value = variant::<T, B>(r, name)?;
    *slot = wrap(value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EncodeErrorKind, Limits};

    type Mentions = List<8, Len<24>>;
    type Tags = Map<4294967295, Len<3>, Opt<Len<2>>>;

    fn decode<T, B: Bound<T>>(bytes: &[u8]) -> Result<T, DecodeError> {
        let mut r = Reader::with_limits(bytes, Limits::DEFAULT);
        let v = field::<T, B>(&mut r, "M.f")?;
        r.expect_end()?;
        Ok(v)
    }

    fn view<'a, V, B: ViewBound<'a, V>>(bytes: &'a [u8]) -> Result<V, DecodeError> {
        let mut r = Reader::with_limits(bytes, Limits::DEFAULT);
        let v = view_field::<V, B>(&mut r, "M.f")?;
        r.expect_end()?;
        Ok(v)
    }

    fn too_long(field: &str, len: usize, max: usize, at: usize) -> DecodeError {
        DecodeError::new(
            DecodeErrorKind::FieldTooLong {
                field: Cow::Owned(field.into()),
                len,
                max,
            },
            at,
        )
    }

    #[test]
    fn places_name_the_part() {
        let f = Place::field("M.f");
        assert_eq!(f.name(), "M.f");
        let e = f.element();
        assert_eq!(e.name(), "M.f[]");
        let k = e.key();
        assert_eq!(k.name(), "M.f[][key]");
        assert_eq!(e.value().element().name(), "M.f[][value][]");
    }

    #[test]
    fn element_limits_are_checked_before_each_element() {
        let ok: Vec<String> = vec!["a".repeat(24), String::new()];
        let bytes = ok.encode_to_vec().unwrap();
        assert_eq!(decode::<Vec<String>, Mentions>(&bytes).unwrap(), ok);
        let v: view::List<'_, &str> = view::<_, Mentions>(&bytes).unwrap();
        assert_eq!(
            v.iter().collect::<Vec<_>>(),
            ["a".repeat(24), String::new()]
        );
        assert!(check::<_, Mentions>("M.f", &ok, 0, 64).is_ok());

        // The second element is 25 bytes: its prefix at offset 4 + 4 + 24.
        let long: Vec<String> = vec!["a".repeat(24), "b".repeat(25)];
        let bytes = long.encode_to_vec().unwrap();
        let e = too_long("M.f[]", 25, 24, 32);
        assert_eq!(decode::<Vec<String>, Mentions>(&bytes).unwrap_err(), e);
        assert_eq!(
            view::<view::List<'_, &str>, Mentions>(&bytes).unwrap_err(),
            e
        );
        let mut into = vec![String::from("x"); 5];
        let mut r = Reader::new(&bytes);
        assert_eq!(
            field_into::<_, Mentions>(&mut r, &mut into, "M.f").unwrap_err(),
            e
        );
        assert_eq!(
            check::<_, Mentions>("M.f", &long, 0, 64)
                .unwrap_err()
                .kind(),
            &EncodeErrorKind::FieldTooLong {
                field: "M.f[]".into(),
                len: 25,
                max: 24
            }
        );

        // The count is checked first, and is the field's own.
        let nine = vec![String::new(); 9];
        let bytes = nine.encode_to_vec().unwrap();
        assert_eq!(
            decode::<Vec<String>, Mentions>(&bytes).unwrap_err(),
            too_long("M.f", 9, 8, 0)
        );

        // Input too short for an element is the count's error, as without
        // the limit.
        let cut = [1, 0, 0, 0, 30, 0];
        let e = decode::<Vec<String>, Mentions>(&cut).unwrap_err();
        assert_eq!(e, Vec::<String>::decode(&cut).unwrap_err());
    }

    #[test]
    fn map_keys_and_optional_values_are_bounded() {
        let mut m: BTreeMap<String, Option<Vec<u8>>> = BTreeMap::new();
        m.insert("abc".into(), Some(vec![1, 2]));
        m.insert("z".into(), None);
        let bytes = m.encode_to_vec().unwrap();
        assert_eq!(decode::<_, Tags>(&bytes).unwrap(), m);
        let v: view::Map<'_, &str, Option<&[u8]>> = view::<_, Tags>(&bytes).unwrap();
        assert_eq!(v.len(), 2);

        m.insert("abcd".into(), None);
        let bytes = m.encode_to_vec().unwrap();
        // "abc" entry: 4 + (4 + 3) + (1 + 4 + 2) = 18; then "abcd"'s prefix.
        let e = too_long("M.f[key]", 4, 3, 18);
        assert_eq!(
            decode::<BTreeMap<String, Option<Vec<u8>>>, Tags>(&bytes).unwrap_err(),
            e
        );
        assert_eq!(
            view::<view::Map<'_, &str, Option<&[u8]>>, Tags>(&bytes).unwrap_err(),
            e
        );

        m.remove("abcd");
        m.insert("abc".into(), Some(vec![0; 3]));
        let bytes = m.encode_to_vec().unwrap();
        // After the count (4), the key (7) and the flag (1).
        let e = too_long("M.f[value]", 3, 2, 12);
        assert_eq!(
            decode::<BTreeMap<String, Option<Vec<u8>>>, Tags>(&bytes).unwrap_err(),
            e
        );
        assert_eq!(
            check::<_, Tags>("M.f", &m, 0, 64).unwrap_err().kind(),
            &EncodeErrorKind::FieldTooLong {
                field: "M.f[value]".into(),
                len: 3,
                max: 2
            }
        );
    }

    #[test]
    fn arrays_bound_each_element() {
        type Each = Array<Len<1>>;
        let a: [Vec<u16>; 2] = [vec![1], vec![2, 3]];
        let bytes = a.encode_to_vec().unwrap();
        assert_eq!(
            decode::<[Vec<u16>; 2], Each>(&bytes).unwrap_err(),
            too_long("M.f[]", 2, 1, 6)
        );
        let v = view::<view::Array<view::FixedList<'_, u16>, 2>, Each>(&bytes).unwrap_err();
        assert_eq!(v, too_long("M.f[]", 2, 1, 6));
    }
}
