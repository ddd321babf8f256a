//! [`Encode`], [`Decode`] and [`FixedSize`] for scalars and std containers.

use crate::memory::HANDLE;
use std::collections::BTreeMap;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::list;
use crate::reader::Reader;
use crate::traits::{Decode, Encode, FixedSize};
use crate::writer::Writer;

#[cold]
fn short(needed: usize, remaining: usize, offset: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::UnexpectedEnd { needed, remaining }, offset)
}

/// `Encode`/`Decode` for a scalar that is also `FixedSize`, using the bulk
/// paths for slices, vectors and arrays.
macro_rules! scalar_codec {
    ($t:ty, $read:ident, $put:ident) => {
        impl Encode for $t {
            #[inline]
            fn encoded_len(&self) -> usize {
                <$t as FixedSize>::SIZE
            }
            #[inline]
            fn encode_raw(&self, w: &mut Writer<'_>) {
                w.$put(*self);
            }
            #[inline]
            fn slice_encoded_len(items: &[Self]) -> usize {
                items.len() * <$t as FixedSize>::SIZE
            }
            #[inline]
            fn encode_slice(items: &[Self], w: &mut Writer<'_>) {
                crate::fixed::write_slice(items, w);
            }
        }

        impl Decode for $t {
            const MIN_ENCODED_LEN: usize = <$t as FixedSize>::SIZE;
            #[inline]
            fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                r.$read()
            }
            #[inline]
            fn placeholder() -> Self {
                <$t>::default()
            }
            #[inline]
            fn decode_vec(count: usize, r: &mut Reader<'_>) -> Result<Vec<Self>, DecodeError> {
                let mut v = Vec::with_capacity(count);
                list::read_fixed_n(&mut v, count, r)?;
                Ok(v)
            }
            #[inline]
            fn decode_vec_into(
                v: &mut Vec<Self>,
                count: usize,
                r: &mut Reader<'_>,
            ) -> Result<(), DecodeError> {
                list::read_fixed_n(v, count, r)
            }
            #[inline]
            fn decode_array<const N: usize>(r: &mut Reader<'_>) -> Result<[Self; N], DecodeError> {
                let at = r.position();
                let bytes = crate::fixed::read_run::<$t>(r, N)?;
                <$t as FixedSize>::read_fixed_array(bytes, at)
            }
        }
    };
}

/// `FixedSize` for a little-endian number.
macro_rules! number {
    ($($t:ty => $read:ident, $put:ident;)*) => {$(
        impl FixedSize for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            #[inline]
            fn write_fixed(&self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn read_fixed(bytes: &[u8], offset: usize) -> Result<Self, DecodeError> {
                match bytes.first_chunk() {
                    Some(a) => Ok(<$t>::from_le_bytes(*a)),
                    None => Err(short(Self::SIZE, bytes.len(), offset)),
                }
            }
            const TOTAL: bool = true;
            #[inline]
            fn is_valid(_bytes: &[u8]) -> bool {
                true
            }
            #[inline]
            fn read_valid(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(*crate::fixed::array_ref(bytes))
            }
            #[inline]
            fn wire_bytes(items: &[Self]) -> Option<&[u8]> {
                crate::plain::wire_bytes(items)
            }
            #[inline]
            fn write_fixed_slice(items: &[Self], out: &mut [u8]) {
                for (item, chunk) in items.iter().zip(out.chunks_exact_mut(Self::SIZE)) {
                    chunk.copy_from_slice(&item.to_le_bytes());
                }
            }
            #[inline]
            fn read_fixed_into(
                v: &mut Vec<Self>,
                count: usize,
                bytes: &[u8],
                offset: usize,
            ) -> Result<(), DecodeError> {
                crate::plain::read_fixed_into(v, count, bytes, offset)
            }
            #[inline]
            fn read_fixed_array<const N: usize>(
                bytes: &[u8],
                offset: usize,
            ) -> Result<[Self; N], DecodeError> {
                if bytes.len() < N * Self::SIZE {
                    return Err(crate::fixed::run_error::<Self>(bytes, offset));
                }
                Ok(core::array::from_fn(|i| {
                    bytes
                        .get(i * Self::SIZE..)
                        .and_then(<[u8]>::first_chunk)
                        .map_or(<$t>::default(), |a| <$t>::from_le_bytes(*a))
                }))
            }
        }

        scalar_codec!($t, $read, $put);
    )*};
}

number! {
    i8 => read_i8, put_i8;
    u16 => read_u16, put_u16;
    u32 => read_u32, put_u32;
    u64 => read_u64, put_u64;
    i16 => read_i16, put_i16;
    i32 => read_i32, put_i32;
    i64 => read_i64, put_i64;
    f32 => read_f32, put_f32;
    f64 => read_f64, put_f64;
}

impl FixedSize for u8 {
    const SIZE: usize = 1;
    #[inline]
    fn wire_bytes(items: &[Self]) -> Option<&[u8]> {
        Some(items)
    }
    #[inline]
    fn write_fixed(&self, out: &mut [u8]) {
        out[0] = *self;
    }
    #[inline]
    fn read_fixed(bytes: &[u8], offset: usize) -> Result<Self, DecodeError> {
        match bytes.first() {
            Some(&b) => Ok(b),
            None => Err(short(1, 0, offset)),
        }
    }
    const TOTAL: bool = true;
    #[inline]
    fn is_valid(_bytes: &[u8]) -> bool {
        true
    }
    #[inline]
    fn read_valid(bytes: &[u8]) -> Self {
        let [b] = *crate::fixed::array_ref(bytes);
        b
    }
    #[inline]
    fn write_fixed_slice(items: &[Self], out: &mut [u8]) {
        out.copy_from_slice(items);
    }
    #[inline]
    fn read_fixed_into(
        v: &mut Vec<Self>,
        _count: usize,
        bytes: &[u8],
        _offset: usize,
    ) -> Result<(), DecodeError> {
        v.extend_from_slice(bytes);
        Ok(())
    }
    #[inline]
    fn read_fixed_array<const N: usize>(
        bytes: &[u8],
        offset: usize,
    ) -> Result<[Self; N], DecodeError> {
        match bytes.first_chunk::<N>() {
            Some(a) => Ok(*a),
            None => Err(crate::fixed::run_error::<Self>(bytes, offset)),
        }
    }
}

scalar_codec!(u8, read_u8, put_u8);

#[cold]
fn bad_bool(bytes: &[u8], offset: usize) -> DecodeError {
    match bytes.iter().position(|&b| b > 1) {
        Some(i) => DecodeError::new(DecodeErrorKind::InvalidBool(bytes[i]), offset + i),
        None => short(1, 0, offset),
    }
}

impl FixedSize for bool {
    const SIZE: usize = 1;
    #[inline]
    fn write_fixed(&self, out: &mut [u8]) {
        out[0] = u8::from(*self);
    }
    #[inline]
    fn read_fixed(bytes: &[u8], offset: usize) -> Result<Self, DecodeError> {
        match bytes.first() {
            Some(0) => Ok(false),
            Some(1) => Ok(true),
            Some(&b) => Err(DecodeError::new(DecodeErrorKind::InvalidBool(b), offset)),
            None => Err(short(1, 0, offset)),
        }
    }
    #[inline]
    fn is_valid(bytes: &[u8]) -> bool {
        let [b] = *crate::fixed::array_ref(bytes);
        b <= 1
    }
    #[inline]
    fn read_valid(bytes: &[u8]) -> Self {
        let [b] = *crate::fixed::array_ref(bytes);
        b != 0
    }
    #[inline]
    fn write_fixed_slice(items: &[Self], out: &mut [u8]) {
        for (item, b) in items.iter().zip(out.iter_mut()) {
            *b = u8::from(*item);
        }
    }
    #[inline]
    fn read_fixed_into(
        v: &mut Vec<Self>,
        _count: usize,
        bytes: &[u8],
        offset: usize,
    ) -> Result<(), DecodeError> {
        // One pass: convert, and check the bytes' union afterwards.
        let mut seen = 0u8;
        v.extend(bytes.iter().map(|&b| {
            seen |= b;
            b != 0
        }));
        if seen > 1 {
            return Err(bad_bool(bytes, offset));
        }
        Ok(())
    }
    #[inline]
    fn read_fixed_array<const N: usize>(
        bytes: &[u8],
        offset: usize,
    ) -> Result<[Self; N], DecodeError> {
        let Some(a) = bytes.first_chunk::<N>() else {
            return Err(crate::fixed::run_error::<Self>(bytes, offset));
        };
        if a.iter().any(|&b| b > 1) {
            return Err(bad_bool(a, offset));
        }
        Ok(a.map(|b| b != 0))
    }
}

scalar_codec!(bool, read_bool, put_bool);

// Arrays: `N` elements back to back, no count.

impl<T: FixedSize, const N: usize> FixedSize for [T; N] {
    const SIZE: usize = T::SIZE * N;
    #[inline]
    fn write_fixed(&self, out: &mut [u8]) {
        T::write_fixed_slice(self, out);
    }
    #[inline]
    fn check_fixed(&self) -> Result<(), crate::EncodeError> {
        self.iter().try_for_each(T::check_fixed)
    }
    #[inline]
    fn read_fixed(bytes: &[u8], offset: usize) -> Result<Self, DecodeError> {
        T::read_fixed_array::<N>(bytes, offset)
    }
    const TOTAL: bool = T::TOTAL;
    #[inline]
    fn is_valid(bytes: &[u8]) -> bool {
        assert_eq!(
            bytes.len(),
            Self::SIZE,
            "FixedSize::is_valid called with a slice of the wrong size"
        );
        T::TOTAL || T::SIZE == 0 || bytes.chunks_exact(T::SIZE).all(T::is_valid)
    }
    #[inline]
    fn read_valid(bytes: &[u8]) -> Self {
        assert_eq!(
            bytes.len(),
            Self::SIZE,
            "FixedSize::read_valid called with a slice of the wrong size"
        );
        core::array::from_fn(|i| T::read_valid(&bytes[i * T::SIZE..(i + 1) * T::SIZE]))
    }
    #[cold]
    fn short_error(bytes: &[u8], offset: usize) -> DecodeError {
        crate::fixed::run_error::<T>(bytes, offset)
    }
}

impl<T: Encode, const N: usize> Encode for [T; N] {
    #[inline]
    fn check_at(&self, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
        self.iter().try_for_each(|v| v.check_at(depth, max_depth))
    }

    #[inline]
    fn encoded_len(&self) -> usize {
        T::slice_encoded_len(self)
    }
    #[inline]
    fn encode_raw(&self, w: &mut Writer<'_>) {
        T::encode_slice(self, w);
    }
}

impl<T: Decode, const N: usize> Decode for [T; N] {
    const MIN_ENCODED_LEN: usize = T::MIN_ENCODED_LEN * N;
    const MEMORY: usize = crate::memory::array(T::MEMORY, N);
    const MEMORY_ALIGN: usize = T::MEMORY_ALIGN;
    #[inline]
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        T::decode_array::<N>(r)
    }
    fn placeholder() -> Self {
        core::array::from_fn(|_| T::placeholder())
    }
    fn decode_into_raw(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        for item in self.iter_mut() {
            item.decode_into_raw(r)?;
        }
        Ok(())
    }
}

// Strings.

impl Encode for str {
    #[inline]
    fn encoded_len(&self) -> usize {
        4 + self.len()
    }
    #[inline]
    fn encode_raw(&self, w: &mut Writer<'_>) {
        w.put_string(self);
    }
}

impl Encode for String {
    #[inline]
    fn encoded_len(&self) -> usize {
        4 + self.len()
    }
    #[inline]
    fn encode_raw(&self, w: &mut Writer<'_>) {
        w.put_string(self);
    }
}

impl Decode for String {
    const MIN_ENCODED_LEN: usize = 4;
    const MEMORY: usize = HANDLE;
    const MEMORY_ALIGN: usize = 8;
    #[inline]
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.read_string()
    }
    #[inline]
    fn placeholder() -> Self {
        String::new()
    }
    #[inline]
    fn decode_into_raw(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        r.read_string_into(self)
    }
}

// Lists. `Vec<u8>` (`bytes`) goes through the `u8` bulk paths.

impl<T: Encode> Encode for [T] {
    #[inline]
    fn check_at(&self, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
        self.iter().try_for_each(|v| v.check_at(depth, max_depth))
    }

    #[inline]
    fn encoded_len(&self) -> usize {
        list::encoded_len(self)
    }
    #[inline]
    fn encode_raw(&self, w: &mut Writer<'_>) {
        list::encode(self, w);
    }
}

impl<T: Encode> Encode for Vec<T> {
    #[inline]
    fn check_at(&self, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
        self.iter().try_for_each(|v| v.check_at(depth, max_depth))
    }

    #[inline]
    fn encoded_len(&self) -> usize {
        list::encoded_len(self)
    }
    #[inline]
    fn encode_raw(&self, w: &mut Writer<'_>) {
        list::encode(self, w);
    }
}

impl<T: Decode> Decode for Vec<T> {
    const MIN_ENCODED_LEN: usize = 4;
    const MEMORY: usize = HANDLE;
    const MEMORY_ALIGN: usize = 8;
    #[inline]
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        list::decode(r)
    }
    #[inline]
    fn decode_into_raw(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        list::decode_into(self, r)
    }
    #[inline]
    fn placeholder() -> Self {
        Vec::new()
    }
}

// Optionals: flag byte, then the value.

impl<T: Encode> Encode for Option<T> {
    #[inline]
    fn check_at(&self, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
        self.as_ref()
            .map_or(Ok(()), |v| v.check_at(depth, max_depth))
    }

    #[inline]
    fn encoded_len(&self) -> usize {
        1 + self.as_ref().map_or(0, T::encoded_len)
    }
    #[inline]
    fn encode_raw(&self, w: &mut Writer<'_>) {
        match self {
            None => w.put_u8(0),
            Some(v) => {
                w.put_u8(1);
                v.encode_raw(w);
            }
        }
    }
}

impl<T: Decode> Decode for Option<T> {
    const MIN_ENCODED_LEN: usize = 1;
    /// One alignment unit for the flag, as the schema compiler's model has it.
    const MEMORY: usize = (T::MEMORY + 2 * T::MEMORY_ALIGN - 1) / T::MEMORY_ALIGN * T::MEMORY_ALIGN;
    const MEMORY_ALIGN: usize = T::MEMORY_ALIGN;
    #[inline]
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        if r.read_option_flag()? {
            T::decode_raw(r).map(Some)
        } else {
            Ok(None)
        }
    }
    #[inline]
    fn decode_into_raw(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        if !r.read_option_flag()? {
            *self = None;
            return Ok(());
        }
        match self {
            Some(v) => v.decode_into_raw(r),
            None => crate::traits::decode_some(self, r),
        }
    }
    #[inline]
    fn placeholder() -> Self {
        None
    }
}

// Boxes and references encode as their contents.

impl<T: Encode + ?Sized> Encode for Box<T> {
    #[inline]
    fn check_at(&self, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
        (**self).check_at(depth, max_depth)
    }

    #[inline]
    fn encoded_len(&self) -> usize {
        (**self).encoded_len()
    }
    #[inline]
    fn encode_raw(&self, w: &mut Writer<'_>) {
        (**self).encode_raw(w);
    }
}

impl<T: Decode> Decode for Box<T> {
    const MIN_ENCODED_LEN: usize = T::MIN_ENCODED_LEN;
    const MEMORY: usize = 8;
    const MEMORY_ALIGN: usize = 8;
    fn placeholder() -> Self {
        Box::new(T::placeholder())
    }
    #[inline]
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        T::decode_boxed(r)
    }
    #[inline]
    fn decode_into_raw(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        (**self).decode_into_raw(r)
    }
}

impl<T: Encode + ?Sized> Encode for &T {
    #[inline]
    fn check_at(&self, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
        (**self).check_at(depth, max_depth)
    }

    #[inline]
    fn encoded_len(&self) -> usize {
        (**self).encoded_len()
    }
    #[inline]
    fn encode_raw(&self, w: &mut Writer<'_>) {
        (**self).encode_raw(w);
    }
}

// Maps: count, then pairs in ascending key order.

impl<K: Encode, V: Encode> Encode for BTreeMap<K, V> {
    fn check_at(&self, depth: u32, max_depth: u32) -> Result<(), EncodeError> {
        self.iter().try_for_each(|(k, v)| {
            k.check_at(depth, max_depth)
                .and_then(|()| v.check_at(depth, max_depth))
        })
    }

    fn encoded_len(&self) -> usize {
        4 + self
            .iter()
            .map(|(k, v)| k.encoded_len() + v.encoded_len())
            .sum::<usize>()
    }
    fn encode_raw(&self, w: &mut Writer<'_>) {
        w.put_len(self.len());
        for (k, v) in self {
            k.encode_raw(w);
            v.encode_raw(w);
        }
    }
}

/// Reads a map's entries into the empty `map`; a repeated key is
/// [`DecodeErrorKind::DuplicateMapKey`] at the key's offset.
fn read_map<K: Decode + Ord, V: Decode>(
    map: &mut BTreeMap<K, V>,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    read_map_with(map, r, K::decode_raw, V::decode_raw, V::decode_into_raw)
}

/// [`read_map`] with each key and value read by `key` and `value`, or a
/// large value decoded in place by `value_into` (which check the limits on
/// them, [`crate::max`]).
#[inline]
pub(crate) fn read_map_with<K: Decode + Ord, V: Decode>(
    map: &mut BTreeMap<K, V>,
    r: &mut Reader<'_>,
    key: impl FnMut(&mut Reader<'_>) -> Result<K, DecodeError>,
    value: impl FnMut(&mut Reader<'_>) -> Result<V, DecodeError>,
    value_into: impl FnMut(&mut V, &mut Reader<'_>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    let min = K::MIN_ENCODED_LEN.saturating_add(V::MIN_ENCODED_LEN);
    let count = r.read_map_count(min, K::MEMORY.saturating_add(V::MEMORY))?;
    read_entries(map, count, r, key, value, value_into)
}

/// Reads `count` entries (a count already read and charged) into `map`,
/// as [`read_map_with`] does.
pub(crate) fn read_entries<K: Decode + Ord, V: Decode>(
    map: &mut BTreeMap<K, V>,
    count: usize,
    r: &mut Reader<'_>,
    mut key: impl FnMut(&mut Reader<'_>) -> Result<K, DecodeError>,
    mut value: impl FnMut(&mut Reader<'_>) -> Result<V, DecodeError>,
    mut value_into: impl FnMut(&mut V, &mut Reader<'_>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    for _ in 0..count {
        let at = r.position();
        let k = key(r)?;
        if map.contains_key(&k) {
            return Err(DecodeError::new(DecodeErrorKind::DuplicateMapKey, at));
        }
        if const { crate::traits::is_placed::<V>() } {
            // A large value is decoded where it will live in the map.
            value_into(insert_placeholder(map, k), r)?;
        } else {
            let v = value(r)?;
            map.insert(k, v);
        }
    }
    Ok(())
}

/// Inserts [`Decode::placeholder`] under `k` and returns it, in a stack
/// frame of its own.
#[inline(never)]
fn insert_placeholder<K: Ord, V: Decode>(map: &mut BTreeMap<K, V>, k: K) -> &mut V {
    map.entry(k).or_insert_with(V::placeholder)
}

impl<K: Decode + Ord, V: Decode> Decode for BTreeMap<K, V> {
    const MIN_ENCODED_LEN: usize = 4;
    const MEMORY: usize = HANDLE;
    const MEMORY_ALIGN: usize = 8;
    fn decode_raw(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let mut map = BTreeMap::new();
        read_map(&mut map, r)?;
        Ok(map)
    }
    fn decode_into_raw(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        self.clear();
        read_map(self, r)
    }
    #[inline]
    fn placeholder() -> Self {
        BTreeMap::new()
    }
}
