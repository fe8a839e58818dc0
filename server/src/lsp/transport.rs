//! A guard in front of tower-lsp-server's reader, which stops reading for
//! good after one message it cannot decode (invalid JSON, a `method` that
//! is not a string...). Every framed message from stdin is checked here
//! first; one that would not decode is replaced by a request to
//! `puppet-ls/invalidMessage`, which the server answers with the JSON-RPC
//! error (`ParseError` or `InvalidRequest`) under the message's id, or
//! `null` when it has none.

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tower_lsp_server::jsonrpc::{self, ErrorCode, Request, Response};

/// The custom method answering undecodable messages.
pub const INVALID_MESSAGE: &str = "puppet-ls/invalidMessage";
/// Larger messages end the session: their bytes cannot be skipped safely.
const MAX_MESSAGE: usize = 512 * 1024 * 1024;

/// Parameters of `puppet-ls/invalidMessage`.
#[derive(Debug, Deserialize)]
pub struct InvalidMessage {
    code: i64,
    message: String,
}

/// The reply to an undecodable message: always its error.
pub async fn invalid_message(params: InvalidMessage) -> jsonrpc::Result<Value> {
    Err(jsonrpc::Error {
        code: ErrorCode::from(params.code),
        message: params.message.into(),
        data: None,
    })
}

/// A message body as tower-lsp-server will be able to decode it.
fn sanitize(body: &[u8]) -> Vec<u8> {
    let (code, message, id) = match serde_json::from_slice::<Value>(body) {
        Err(e) => (-32700, format!("parse error: {e}"), Value::Null),
        Ok(value) => {
            let decodable = value.is_object()
                && (serde_json::from_value::<Request>(value.clone()).is_ok()
                    || serde_json::from_value::<Response>(value.clone()).is_ok());
            // tower-lsp-server drops `$/` requests silently; the protocol
            // wants MethodNotFound for the ones a server does not know
            // (all of them: the `$/` methods it knows are notifications).
            let dollar_request = value
                .get("method")
                .and_then(Value::as_str)
                .is_some_and(|m| m.starts_with("$/"))
                && matches!(value.get("id"), Some(Value::Number(_) | Value::String(_)));
            if decodable && !dollar_request {
                return body.to_vec();
            }
            if dollar_request {
                let method = value["method"].as_str().unwrap_or_default().to_string();
                return replacement(
                    -32601,
                    format!("method not found: {method}"),
                    value["id"].clone(),
                );
            }
            let id = match value.get("id") {
                Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
                _ => Value::Null,
            };
            (-32600, "invalid JSON-RPC message".to_string(), id)
        }
    };
    replacement(code, message, id)
}

/// The `puppet-ls/invalidMessage` request standing for a message the
/// server must answer with an error.
fn replacement(code: i64, message: String, id: Value) -> Vec<u8> {
    tracing::warn!("{message}");
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": INVALID_MESSAGE,
        "params": { "code": code, "message": message },
    })
    .to_string()
    .into_bytes()
}

/// Reads `Content-Length` framed messages from `input`; a header block
/// without a length is skipped. `None` at the end of input.
async fn read_frame<R: AsyncRead + Unpin>(input: &mut BufReader<R>) -> Option<Vec<u8>> {
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            if input.read_line(&mut line).await.ok()? == 0 {
                return None;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.trim().eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse::<usize>().ok();
                }
            }
        }
        let Some(length) = length else {
            tracing::warn!("message without Content-Length skipped");
            continue;
        };
        if length > MAX_MESSAGE {
            tracing::error!("message of {length} bytes: input abandoned");
            return None;
        }
        let mut body = vec![0; length];
        input.read_exact(&mut body).await.ok()?;
        return Some(body);
    }
}

/// The server's input: stdin with every message checked. The copying
/// task ends at the end of stdin, which closes the returned reader.
pub fn guarded_stdin() -> tokio::io::DuplexStream {
    let (mut writer, reader) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        while let Some(body) = read_frame(&mut stdin).await {
            let body = sanitize(&body);
            let header = format!("Content-Length: {}\r\n\r\n", body.len());
            if writer.write_all(header.as_bytes()).await.is_err()
                || writer.write_all(&body).await.is_err()
            {
                break;
            }
        }
        let _ = writer.shutdown().await;
    });
    reader
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollar_requests_get_method_not_found() {
        let out = sanitize(br#"{"jsonrpc":"2.0","id":7,"method":"$/custom/ping","params":{}}"#);
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["method"], INVALID_MESSAGE);
        assert_eq!(v["id"], 7);
        assert_eq!(v["params"]["code"], -32601);
        // `$/` notifications pass through untouched.
        let note = br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#;
        assert_eq!(sanitize(note), note.to_vec());
    }

    #[test]
    fn undecodable_messages_become_error_requests() {
        let valid = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        assert_eq!(sanitize(valid), valid.to_vec());
        let response = br#"{"jsonrpc":"2.0","id":1,"result":null}"#;
        assert_eq!(sanitize(response), response.to_vec());
        for (body, code, id) in [
            (&b"{not json"[..], -32700, Value::Null),
            (&br#"[1, 2]"#[..], -32600, Value::Null),
            (
                &br#"{"jsonrpc":"2.0","method":5,"id":"x"}"#[..],
                -32600,
                json!("x"),
            ),
        ] {
            let replaced: Value = serde_json::from_slice(&sanitize(body)).unwrap();
            assert_eq!(replaced["method"], INVALID_MESSAGE);
            assert_eq!(replaced["params"]["code"], code);
            assert_eq!(replaced["id"], id);
        }
    }

    #[tokio::test]
    async fn frames_are_read_and_bad_headers_skipped() {
        let input = b"X-Other: 1\r\n\r\nContent-Length: 2\r\n\r\n{}content-length:3\r\n\r\n[1]";
        let mut reader = BufReader::new(&input[..]);
        assert_eq!(read_frame(&mut reader).await.unwrap(), b"{}");
        assert_eq!(read_frame(&mut reader).await.unwrap(), b"[1]");
        assert!(read_frame(&mut reader).await.is_none());
    }
}
