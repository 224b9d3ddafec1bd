//! Where a problem is: the path to the current value, a chain of stack frames rendered only when reported.

use std::fmt::Write as _;

use super::messages::json_str;

#[derive(Debug, Clone, Copy)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// A path as a chain of stack frames; rendered only when a violation is reported.
#[derive(Debug, Clone, Copy)]
pub(super) struct Path<'a> {
    pub(super) parent: Option<&'a Path<'a>>,
    seg: Seg<'a>,
}

impl<'a> Path<'a> {
    pub(super) const ROOT: Path<'static> = Path {
        parent: None,
        seg: Seg::Root,
    };

    pub(super) fn key<'b>(&'b self, key: &'b str) -> Path<'b>
    where
        'a: 'b,
    {
        Path {
            parent: Some(self),
            seg: Seg::Key(key),
        }
    }

    pub(super) fn index<'b>(&'b self, index: usize) -> Path<'b>
    where
        'a: 'b,
    {
        Path {
            parent: Some(self),
            seg: Seg::Index(index),
        }
    }

    pub(super) fn is_root(&self) -> bool {
        matches!(self.seg, Seg::Root)
    }

    pub(super) fn render(&self) -> String {
        let mut segs = Vec::new();
        let mut cur = Some(self);
        while let Some(p) = cur {
            segs.push(p.seg);
            cur = p.parent;
        }
        let mut out = String::new();
        for seg in segs.iter().rev() {
            match seg {
                Seg::Root => {}
                Seg::Index(i) => {
                    let _ = write!(out, "[{i}]");
                }
                Seg::Key(k) => {
                    let plain = !k.is_empty()
                        && k.bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
                    if plain {
                        if !out.is_empty() {
                            out.push('.');
                        }
                        out.push_str(k);
                    } else {
                        out.push('[');
                        out.push_str(&json_str(k));
                        out.push(']');
                    }
                }
            }
        }
        out
    }
}
