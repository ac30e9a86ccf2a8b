//! `hayate gui`: the local web GUI's server, with the engines the page may use.

use std::process::ExitCode;

use clap::{ArgAction, ArgMatches, Args};

use hayate::host::engine_process::EngineSpec;

use super::engine_groups;

#[derive(Args, Debug)]
pub struct GuiArgs {
    /// Port on 127.0.0.1 (0: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// An engine the page may use: cmd=<path> [arg=<a> ...] [dir=<d>] [name=<n>] [option.<Name>=<value> ...];
    /// repeat for more. Without one, this Hayate.
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE")]
    pub engines: Vec<String>,
    /// A record to replay on the page: a games.txt (or the --out folder of a running `hayate match`, whose
    /// games in progress are shown move by move) or a CSA file.
    #[arg(long, value_name = "FILE|DIR")]
    pub watch: Option<std::path::PathBuf>,
}

/// `hayate gui`; `matches` is the command line as clap read it, for the grouping of `--engine`'s words.
pub fn run_gui(args: &GuiArgs, matches: &ArgMatches) -> ExitCode {
    let fail = |msg: String| {
        eprintln!("hayate gui: {msg}");
        ExitCode::from(2)
    };
    let mut engines = Vec::new();
    for words in engine_groups(matches, "gui") {
        match EngineSpec::parse(&words) {
            Ok(s) => engines.push(s),
            Err(e) => return fail(e.to_string()),
        }
    }
    debug_assert_eq!(args.engines.is_empty(), engines.is_empty());
    if engines.is_empty() {
        let exe = match std::env::current_exe() {
            Ok(p) => p,
            Err(e) => return fail(format!("cannot find this executable: {e}")),
        };
        engines.push(EngineSpec {
            cmd: exe.to_string_lossy().into_owned(),
            name: Some("Hayate".into()),
            ..EngineSpec::default()
        });
    }
    let config = hayate::gui::GuiConfig {
        port: args.port,
        engines,
        watch: args.watch.clone(),
    };
    match hayate::gui::serve(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e.to_string()),
    }
}
