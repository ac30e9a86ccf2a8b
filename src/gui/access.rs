//! Who may talk to the server: only a page opened from the URL `hayate gui` printed. The server listens on
//! 127.0.0.1, but any local process and any web site open in the user's browser can reach that address, so
//! every request and socket must carry the random token of the URL, and the Host and Origin headers must name
//! this server (a foreign site's page sends its own Origin; DNS rebinding sends a foreign Host).

/// The secret of one server run: 128 random bits in hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// 128 bits from the operating system's random source.
    pub fn random() -> Result<Token, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Compares in time independent of where the strings differ, so the token cannot be guessed by timing.
    fn matches(&self, given: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), given.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

/// The headers and target of a request, as far as access is concerned.
pub struct Credentials<'a> {
    /// The request target: path and query.
    pub target: &'a str,
    pub host: Option<&'a str>,
    pub origin: Option<&'a str>,
}

/// Why a request or socket was refused (logged, and sent in the 403's body). It names the check that failed
/// and nothing of what was sent, so that a foreign page learns nothing from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccessError {
    #[error("wrong Host header")]
    Host,
    #[error("wrong Origin header")]
    Origin,
    #[error("wrong token")]
    WrongToken,
    #[error("no token")]
    NoToken,
}

/// Checks token, Host and Origin; the error says which failed.
pub fn check(token: &Token, port: u16, c: &Credentials) -> Result<(), AccessError> {
    let allowed_hosts = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    match c.host {
        Some(h) if allowed_hosts.iter().any(|a| a.eq_ignore_ascii_case(h)) => {}
        _ => return Err(AccessError::Host),
    }
    if let Some(o) = c.origin {
        let ok = allowed_hosts
            .iter()
            .any(|a| o.eq_ignore_ascii_case(&format!("http://{a}")));
        if !ok {
            return Err(AccessError::Origin);
        }
    }
    match query_value(c.target, "token") {
        Some(t) if token.matches(t) => Ok(()),
        Some(_) => Err(AccessError::WrongToken),
        None => Err(AccessError::NoToken),
    }
}

/// The path of a request target, without its query.
pub fn path(target: &str) -> &str {
    target.split(['?', '#']).next().unwrap_or("")
}

/// The first value of `key` in the target's query (the token is hex: no percent-decoding is needed).
fn query_value<'a>(target: &'a str, key: &str) -> Option<&'a str> {
    let query = target.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or("");
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creds<'a>(
        target: &'a str,
        host: Option<&'a str>,
        origin: Option<&'a str>,
    ) -> Credentials<'a> {
        Credentials {
            target,
            host,
            origin,
        }
    }

    #[test]
    fn token_host_and_origin_are_all_needed() {
        let t = Token::random().unwrap();
        assert_eq!(t.as_str().len(), 32);
        assert_ne!(t, Token::random().unwrap());
        let good = format!("/?token={}", t.as_str());
        let host = Some("127.0.0.1:8080");
        assert_eq!(check(&t, 8080, &creds(&good, host, None)), Ok(()));
        assert_eq!(
            check(
                &t,
                8080,
                &creds(&good, Some("localhost:8080"), Some("http://localhost:8080"))
            ),
            Ok(())
        );
        assert_eq!(
            check(&t, 8080, &creds("/", host, None)),
            Err(AccessError::NoToken)
        );
        assert_eq!(
            check(&t, 8080, &creds("/?token=00", host, None)),
            Err(AccessError::WrongToken)
        );
        assert_eq!(
            check(&t, 8080, &creds(&good, Some("evil.com:8080"), None)),
            Err(AccessError::Host)
        );
        assert_eq!(
            check(&t, 8080, &creds(&good, None, None)),
            Err(AccessError::Host)
        );
        assert_eq!(
            check(&t, 8081, &creds(&good, host, None)),
            Err(AccessError::Host)
        );
        assert_eq!(
            check(&t, 8080, &creds(&good, host, Some("http://evil.com"))),
            Err(AccessError::Origin)
        );
        assert_eq!(path("/socket?token=1"), "/socket");
    }
}
