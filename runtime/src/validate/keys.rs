//! Property names compared fast: the first 8 bytes of a name as one integer, then the rest
//! without a `memcmp` call for the short names properties usually have.

/// The first 8 bytes of a property name as a number (zero-padded): names of different heads
/// differ, so most comparisons are one integer comparison.
#[inline(always)]
pub(super) fn key_head(b: &[u8]) -> u64 {
    let n = b.len();
    if let Some(head) = b.first_chunk::<8>() {
        return u64::from_le_bytes(*head);
    }
    // Shorter: overlapping loads; the bytes they share are the same bytes at the same places.
    let at = |i: usize| u64::from(b[i]) << (8 * i);
    if n >= 4 {
        let word = |i: usize| {
            u64::from(u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])) << (8 * i)
        };
        word(0) | word(n - 4)
    } else if n > 0 {
        at(0) | at(n / 2) | at(n - 1)
    } else {
        0
    }
}

/// Whether `name` (whose [`key_head`] is `head`) equals `key` (whose head is `key_head`): the
/// heads, the lengths, then the rest.
#[inline(always)]
pub(super) fn same_key(name: &[u8], head: u64, key: &[u8], key_head: u64) -> bool {
    if head != key_head || name.len() != key.len() {
        return false;
    }
    let len = key.len();
    if len <= 8 {
        return true;
    }
    short_eq(&name[8..], &key[8..])
}

/// Byte equality for the short strings names usually are, without a `memcmp` call: up to 16
/// bytes are compared as two overlapping words.
#[inline]
pub(crate) fn short_eq(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n > 16 {
        return a == b;
    }
    if n >= 8 {
        let word =
            |x: &[u8], at: usize| u64::from_le_bytes(x[at..at + 8].try_into().unwrap_or_default());
        return word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8);
    }
    if n >= 4 {
        let word =
            |x: &[u8], at: usize| u32::from_le_bytes(x[at..at + 4].try_into().unwrap_or_default());
        return word(a, 0) == word(b, 0) && word(a, n - 4) == word(b, n - 4);
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}
