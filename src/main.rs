use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

mod cli;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    // one reading of the command line: `match` and `gui` group `--engine`'s words from the same matches
    let matches = cli::Cli::command().get_matches();
    let args = cli::Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match args.command {
        Some(cli::Command::Perft(p)) => cli::run_perft(&p),
        Some(cli::Command::Bench(b)) => cli::run_bench(&b),
        Some(cli::Command::Match(m)) => cli::run_match(&m, &matches),
        Some(cli::Command::Mate(m)) => cli::mate::run_mate(&m),
        Some(cli::Command::Gui(g)) => cli::run_gui(&g, &matches),
        Some(cli::Command::Selfplay(s)) => cli::selfplay::run_selfplay(&s),
        Some(cli::Command::Train(t)) => cli::train::run_train(&t),
        Some(cli::Command::Data(d)) => cli::data::run_data(&d),
        Some(cli::Command::Openings(o)) => cli::openings::run_openings(&o),
        Some(cli::Command::Tune(t)) => cli::tune::run_tune(&t),
        Some(cli::Command::Xboard) => {
            hayate::xboard::run();
            ExitCode::SUCCESS
        }
        None => {
            run_protocol();
            ExitCode::SUCCESS
        }
    }
}

/// The protocol loop on stdin/stdout: USI, unless the first line (blank lines skipped) is `xboard`, which is how
/// XBoard and WinBoard open a session; the rest of the input then goes to the CECP front end. The choice is made
/// here, so that neither front end knows of the other.
fn run_protocol() {
    use hayate::host::reader::{first_input, spawn_reader, Input};
    let rx = spawn_reader();
    match first_input(&rx) {
        Input::Line(l) if l.trim() == "xboard" => hayate::xboard::run_on(rx),
        first => hayate::usi::run_on(rx, first),
    }
}
