//! A folder of its own for one test's files, removed when the test ends; shared by the test binaries that need one
//! (each includes this file with `#[path]`).

/// The folder; `prefix` names the test binary and `name` the test, so that parallel tests never share one.
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    pub fn new(prefix: &str, name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("hayate-{prefix}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("cannot make the scratch folder");
        Scratch(d)
    }

    pub fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
