//! Panic messages built during `const` evaluation, for the compile-time checks whose outcome
//! depends on types (a unit that does not measure a quantity, a range outside a type's width).

/// A panic message built during `const` evaluation (numbers included), for checks whose outcome
/// depends on types.
pub struct Msg {
    buf: [u8; 1024],
    len: usize,
}

impl Msg {
    /// An empty message.
    pub const fn new() -> Msg {
        Msg {
            buf: [0; 1024],
            len: 0,
        }
    }

    /// Appends text (cut at 1024 bytes, on a character boundary).
    pub const fn str(mut self, s: &str) -> Msg {
        let bytes = s.as_bytes();
        if self.len + bytes.len() > self.buf.len() {
            return self;
        }
        let mut i = 0;
        while i < bytes.len() {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// Appends an integer in decimal.
    pub const fn int(self, value: i128) -> Msg {
        let mut digits = [0u8; 40];
        let mut n = value.unsigned_abs();
        let mut start = digits.len();
        loop {
            start -= 1;
            digits[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        if value < 0 {
            start -= 1;
            digits[start] = b'-';
        }
        let (_, tail) = digits.split_at(start);
        match core::str::from_utf8(tail) {
            Ok(s) => self.str(s),
            Err(_) => self,
        }
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        let (head, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(head) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

impl Default for Msg {
    fn default() -> Self {
        Self::new()
    }
}
