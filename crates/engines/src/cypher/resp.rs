//! A minimal RESP2 client (the Redis protocol), enough for FalkorDB's `GRAPH.QUERY`: commands
//! are arrays of bulk strings, replies are read whole. A dependency on the `redis` crate would
//! bring a connection manager and async runtimes for these hundred lines.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// One reply.
#[derive(Clone, Debug, PartialEq)]
pub enum Resp {
    Simple(String),
    Error(String),
    Int(i64),
    /// A bulk string; `None` is RESP's null bulk string.
    Bulk(Option<Vec<u8>>),
    Array(Vec<Resp>),
    /// RESP's null array.
    Nil,
}

impl Resp {
    /// The text of a simple or bulk string.
    pub fn text(&self) -> Option<String> {
        match self {
            Resp::Simple(s) => Some(s.clone()),
            Resp::Bulk(Some(b)) => Some(String::from_utf8_lossy(b).into_owned()),
            _ => None,
        }
    }
}

/// One connection.
pub struct Conn {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

/// Nesting deeper than this is no reply crosscheck's queries can produce.
const MAX_DEPTH: usize = 64;

impl Conn {
    pub fn connect(host: &str, port: u16, timeout: Duration) -> std::io::Result<Conn> {
        use std::net::ToSocketAddrs;
        let mut last = std::io::Error::other("no address");
        for a in (host, port).to_socket_addrs()? {
            match TcpStream::connect_timeout(&a, timeout) {
                Ok(s) => {
                    s.set_nodelay(true)?;
                    let writer = s.try_clone()?;
                    return Ok(Conn { reader: BufReader::new(s), writer });
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// Sends one command and reads its reply, waiting at most `limit` for it.
    pub fn command(&mut self, args: &[&str], limit: Duration) -> std::io::Result<Resp> {
        let mut out = format!("*{}\r\n", args.len()).into_bytes();
        for a in args {
            out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
            out.extend_from_slice(a.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        self.writer.set_write_timeout(Some(limit.max(Duration::from_millis(1))))?;
        self.writer.write_all(&out)?;
        self.reader.get_ref().set_read_timeout(Some(limit.max(Duration::from_millis(1))))?;
        self.read(0)
    }

    fn line(&mut self) -> std::io::Result<String> {
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof));
        }
        Ok(line.trim_end_matches(['\r', '\n']).to_string())
    }

    fn read(&mut self, depth: usize) -> std::io::Result<Resp> {
        let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
        if depth > MAX_DEPTH {
            return Err(bad("reply nested too deep"));
        }
        let line = self.line()?;
        let (tag, rest) = line.split_at(line.len().min(1));
        let int = |s: &str| s.parse::<i64>().map_err(|_| bad(&format!("bad length or integer: {s}")));
        Ok(match tag {
            "+" => Resp::Simple(rest.to_string()),
            "-" => Resp::Error(rest.to_string()),
            ":" => Resp::Int(int(rest)?),
            "$" => match usize::try_from(int(rest)?) {
                Err(_) => Resp::Bulk(None),
                Ok(n) => {
                    let mut buf = vec![0; n + 2];
                    self.reader.read_exact(&mut buf)?;
                    buf.truncate(n);
                    Resp::Bulk(Some(buf))
                }
            },
            "*" => match usize::try_from(int(rest)?) {
                Err(_) => Resp::Nil,
                Ok(n) => Resp::Array((0..n).map(|_| self.read(depth + 1)).collect::<Result<_, _>>()?),
            },
            _ => return Err(bad(&format!("not a RESP reply: {line}"))),
        })
    }
}
