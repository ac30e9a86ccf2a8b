//! The page's files, built into the binary: no build step, no network, the same page for every run.

/// A file of the page: its content type and bytes.
pub struct Asset {
    pub content_type: &'static str,
    pub body: &'static [u8],
}

/// The file served at `path`, if any.
pub fn get(path: &str) -> Option<Asset> {
    let (content_type, body): (&str, &[u8]) = match path {
        "/" | "/index.html" => (
            "text/html; charset=utf-8",
            include_bytes!("page/index.html"),
        ),
        "/style.css" => ("text/css; charset=utf-8", include_bytes!("page/style.css")),
        "/board.js" => (
            "text/javascript; charset=utf-8",
            include_bytes!("page/board.js"),
        ),
        "/app.js" => (
            "text/javascript; charset=utf-8",
            include_bytes!("page/app.js"),
        ),
        _ => return None,
    };
    Some(Asset { content_type, body })
}
