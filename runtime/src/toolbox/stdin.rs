//! Stdin for `serve_stdio`, read on a thread of its own. tokio's `Stdin` reads on the runtime's
//! blocking pool, and a blocking read cannot be cancelled: once a signal has stopped the calls
//! and the server returns, dropping the runtime would wait for that read, that is, for the
//! client to close stdin, and the process would not exit. A detached thread does not hold it.

use std::io::Read as _;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::mpsc;

/// Bytes read from stdin, a chunk at a time, by the thread that reads it.
pub(crate) struct Stdin {
    chunks: mpsc::Receiver<std::io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
}

/// How much one read of stdin takes at most.
const CHUNK: usize = 64 << 10;

/// Stdin, read by a thread of its own from now on (until it ends, fails, or the reader is
/// dropped and a read returns).
pub(crate) fn stdin() -> std::io::Result<Stdin> {
    let (send, chunks) = mpsc::channel(4);
    std::thread::Builder::new()
        .name("toolwright-stdin".to_owned())
        .spawn(move || {
            let mut input = std::io::stdin().lock();
            loop {
                let mut chunk = vec![0; CHUNK];
                let read = match input.read(&mut chunk) {
                    Ok(0) => return,
                    Ok(n) => {
                        chunk.truncate(n);
                        Ok(chunk)
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let failed = read.is_err();
                if send.blocking_send(read).is_err() || failed {
                    return;
                }
            }
        })?;
    Ok(Stdin {
        chunks,
        chunk: Vec::new(),
        at: 0,
    })
}

impl AsyncRead for Stdin {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        if this.at == this.chunk.len() {
            match this.chunks.poll_recv(cx) {
                Poll::Pending => return Poll::Pending,
                // The end of stdin: a read of nothing.
                Poll::Ready(None) => return Poll::Ready(Ok(())),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(e)),
                Poll::Ready(Some(Ok(chunk))) => {
                    this.chunk = chunk;
                    this.at = 0;
                }
            }
        }
        let n = buf.remaining().min(this.chunk.len() - this.at);
        buf.put_slice(&this.chunk[this.at..this.at + n]);
        this.at += n;
        Poll::Ready(Ok(()))
    }
}
