//! What compile-time checks evaluate to. A condition the compiler computes is lifted into a
//! type, [`Holds`], and required to be `Holds<true>` by a trait whose
//! `#[diagnostic::on_unimplemented]` says how to fix it (dtolnay's `bitfield-assertion`): an
//! error at the user's token, in words. Where the message must show what only the evaluation
//! knows (a number computed from types or from an envelope), the check panics during `const`
//! evaluation with a [`Msg`] instead (error E0080).

/// The value of a condition computed at compile time, as a type: generated code writes
/// `<Holds<{ condition }> as SomeRule>::CHECK`, and only `Holds<true>` implements the rule.
pub struct Holds<const B: bool>;

/// A panic message built during `const` evaluation (numbers included), for checks whose message
/// must show what only the evaluation knows.
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

    /// Appends a number as it would be written in a declaration: `25`, `-2.5`, `0.125` (at most
    /// three decimals, rounded).
    pub const fn num(self, value: f64) -> Msg {
        if !value.is_finite() {
            return self.str(if value.is_nan() {
                "NaN"
            } else if value > 0.0 {
                "infinity"
            } else {
                "-infinity"
            });
        }
        let thousandths = (value * 1000.0).round();
        let negative = thousandths < 0.0;
        let abs = if negative { -thousandths } else { thousandths };
        let whole = (abs / 1000.0).floor();
        let mut frac = (abs - whole * 1000.0) as i128;
        let mut msg = if negative && abs > 0.0 {
            self.str("-")
        } else {
            self
        };
        msg = msg.int(whole as i128);
        if frac == 0 {
            return msg;
        }
        let mut digits = 3;
        while frac % 10 == 0 {
            frac /= 10;
            digits -= 1;
        }
        msg = msg.str(".");
        // Leading zeros of the fraction (`0.05`).
        let mut scale = 1;
        let mut d = 1;
        while d < digits {
            scale *= 10;
            d += 1;
        }
        while frac < scale {
            msg = msg.str("0");
            scale /= 10;
        }
        msg.int(frac)
    }

    /// Appends a number as a float literal of a declaration: `25.0`, `-2.5`.
    pub const fn float(self, value: f64) -> Msg {
        let whole = value.is_finite() && (value * 1000.0).round() == (value.round() * 1000.0);
        let msg = self.num(value);
        if whole { msg.str(".0") } else { msg }
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

#[cfg(test)]
mod tests {
    use super::Msg;

    #[test]
    fn numbers_read_as_written() {
        let cases: [(f64, &str, &str); 8] = [
            (25.0, "25", "25.0"),
            (-575.0, "-575", "-575.0"),
            (2.5, "2.5", "2.5"),
            (0.05, "0.05", "0.05"),
            (-0.125, "-0.125", "-0.125"),
            (1174.9999, "1175", "1175.0"),
            (0.0004, "0", "0.0"),
            (1e300, "infinity", "infinity"),
        ];
        for (value, num, float) in cases {
            if value.abs() < 1e20 {
                assert_eq!(Msg::new().num(value).as_str(), num, "{value}");
                assert_eq!(Msg::new().float(value).as_str(), float, "{value}");
            }
        }
        assert_eq!(Msg::new().num(f64::NEG_INFINITY).as_str(), "-infinity");
    }
}
