//! The test match through a real one-node Slurm cluster (Debian's slurm-wlm and munge): munged, slurmctld and
//! slurmd started in a temporary folder with a configuration for this host, the four shards submitted as a job
//! array and the merge as a job that depends on it, as docs/matches.md shows, and the merged records and summary
//! compared with the whole match played directly. Skipped, with a message, where Slurm is not installed or the
//! test does not run as root (slurmd must, to start jobs as their user).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{match_args, played, same_as_whole, scratch, text, HAYATE, SHARDS};

/// The daemons' programs, found in PATH or Debian's sbin folders.
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/bin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The running daemons; dropping it stops them, the test failed or not.
struct Cluster {
    conf: PathBuf,
    dir: PathBuf,
    daemons: Vec<(&'static str, Child)>,
}

impl Cluster {
    /// A command of Slurm's that talks to this cluster.
    fn slurm(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf).stdin(Stdio::null());
        c
    }

    fn spawn(&mut self, name: &'static str, program: &Path, args: &[&str]) {
        let log = std::fs::File::create(self.dir.join(format!("{name}.stderr"))).unwrap();
        let child = Command::new(program)
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        self.daemons.push((name, child));
    }

    /// The daemons' logs, for a failure's message.
    fn logs(&self) -> String {
        let mut s = String::new();
        for f in [
            "slurmctld.log",
            "slurmd.log",
            "munged.log",
            "slurmctld.stderr",
            "slurmd.stderr",
        ] {
            let t = std::fs::read_to_string(self.dir.join(f)).unwrap_or_default();
            let tail: Vec<&str> = t.lines().rev().take(15).collect();
            s.push_str(&format!("--- {f}\n"));
            for l in tail.into_iter().rev() {
                s.push_str(l);
                s.push('\n');
            }
        }
        s
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // slurmctld tells the slurmd to stop too; whatever is still running after that is killed
        let _ = self
            .slurm("scontrol")
            .arg("shutdown")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        for (_, child) in self.daemons.iter_mut().rev() {
            let deadline = Instant::now() + Duration::from_secs(5);
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts munged, slurmctld and slurmd in `dir` for this host, and waits until its node takes jobs.
fn start(dir: &Path, programs: &[PathBuf; 3]) -> Cluster {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "localhost".into());
    let d = dir.display();
    let munge = dir.join("munge");
    std::fs::create_dir_all(&munge).unwrap();
    let key = munge.join("munge.key");
    // munged wants a key of its own that nobody else may read; any 1024 bytes do for one host
    let bytes: Vec<u8> = (0..1024u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&key, bytes).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o400)).unwrap();
    std::fs::set_permissions(&munge, std::fs::Permissions::from_mode(0o700)).unwrap();
    let (ctld_port, slurmd_port) = (free_port(), free_port());
    let conf = dir.join("slurm.conf");
    std::fs::write(
        &conf,
        format!(
            "ClusterName=hayate-test\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmctldPort={ctld_port}\n\
             SlurmdPort={slurmd_port}\n\
             SlurmUser=root\n\
             SlurmdUser=root\n\
             AuthType=auth/munge\n\
             CredType=cred/munge\n\
             AuthInfo=socket={d}/munge/socket\n\
             StateSaveLocation={d}/state\n\
             SlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\n\
             SlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\n\
             SlurmdLogFile={d}/slurmd.log\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             JobAcctGatherType=jobacct_gather/none\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_CPU\n\
             MpiDefault=none\n\
             ReturnToService=2\n\
             NodeName={host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
             PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP\n"
        ),
    )
    .unwrap();
    let mut c = Cluster {
        conf: conf.clone(),
        dir: dir.to_path_buf(),
        daemons: Vec::new(),
    };
    let m = |f: &str| format!("--{f}={d}/munge/{}", f.trim_end_matches("-file"));
    c.spawn(
        "munged",
        &programs[0],
        &[
            "--foreground",
            "--force",
            &format!("--key-file={}", key.display()),
            &format!("--socket={d}/munge/socket"),
            &m("pid-file"),
            &m("seed-file"),
            &format!("--log-file={d}/munged.log"),
        ],
    );
    wait_for(&c, "munged's socket", || munge.join("socket").exists());
    let conf_s = conf.display().to_string();
    c.spawn("slurmctld", &programs[1], &["-D", "-f", &conf_s]);
    c.spawn("slurmd", &programs[2], &["-D", "-f", &conf_s, "-N", &host]);
    wait_for(&c, "the node to be idle", || {
        c.slurm("sinfo")
            .args(["-h", "-N", "-o", "%t"])
            .output()
            .is_ok_and(|o| text(&o.stdout).trim() == "idle")
    });
    c
}

/// Polls `ready` for up to 30 s; panics with the daemons' logs when it never holds.
fn wait_for(c: &Cluster, what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "waited 30 s for {what}\n{}",
            c.logs()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// `sbatch --parsable` of a script; the job's id.
fn sbatch(c: &Cluster, args: &[&str], script: &Path) -> String {
    let o = c
        .slurm("sbatch")
        .arg("--parsable")
        .args(args)
        .arg(script)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "sbatch: {}\n{}",
        text(&o.stderr),
        c.logs()
    );
    text(&o.stdout).trim().to_string()
}

/// A shell word, quoted.
fn quote(w: &str) -> String {
    format!("'{}'", w.replace('\'', "'\\''"))
}

#[test]
fn shards_as_a_slurm_job_array_merge_into_the_whole_match() {
    let found = ["munged", "slurmctld", "slurmd", "sbatch"].map(|p| (p, program(p)));
    if let Some((p, _)) = found.iter().find(|(_, f)| f.is_none()) {
        eprintln!("Slurm test skipped: {p} is not installed (Debian's slurm-wlm and munge)");
        return;
    }
    // SAFETY: geteuid only reads the process's credentials
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("Slurm test skipped: slurmd needs root to start jobs");
        return;
    }
    let programs = [0, 1, 2].map(|i| found[i].1.clone().unwrap());
    let p = played();
    let scratch = scratch::Scratch::new("cluster", "slurm");
    let dir = PathBuf::from(scratch.path("slurm"));
    std::fs::create_dir_all(&dir).unwrap();
    let cluster = start(&dir, &programs);

    // the job scripts as docs/matches.md gives them, with the test match's options
    let match_words: Vec<String> = match_args().iter().map(|w| quote(w)).collect();
    let shards = dir.join("shards.sh");
    std::fs::write(
        &shards,
        format!(
            "#!/bin/sh\n\
             #SBATCH --job-name=hayate-shards\n\
             #SBATCH --cpus-per-task=1\n\
             #SBATCH --output={d}/shard-%a.log\n\
             exec {hayate} {words} --shard \"$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT\" \\\n  \
             --out {d}/shard-\"$SLURM_ARRAY_TASK_ID\"\n",
            d = dir.display(),
            hayate = HAYATE,
            words = match_words.join(" "),
        ),
    )
    .unwrap();
    let merge = dir.join("merge.sh");
    let list: Vec<String> = (0..SHARDS)
        .map(|k| format!("{}/shard-{k}", dir.display()))
        .collect();
    std::fs::write(
        &merge,
        format!(
            "#!/bin/sh\n\
             #SBATCH --job-name=hayate-merge\n\
             #SBATCH --output={d}/merge.log\n\
             exec {HAYATE} match --merge {} --out {d}/merged\n",
            list.join(" "),
            d = dir.display(),
        ),
    )
    .unwrap();
    let array = format!("--array=0-{}", SHARDS - 1);
    let shards_job = sbatch(&cluster, &[&array], &shards);
    let merge_job = sbatch(
        &cluster,
        &[&format!("--dependency=afterok:{shards_job}")],
        &merge,
    );
    eprintln!("submitted the shards as job array {shards_job}, the merge as job {merge_job}");

    // until no job of ours is queued or running (the match's own time limit is the merge log's appearing)
    let start = Instant::now();
    loop {
        let q = cluster
            .slurm("squeue")
            .args(["-h", "-j", &format!("{shards_job},{merge_job}")])
            .output()
            .unwrap();
        if text(&q.stdout).trim().is_empty() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the jobs did not end in 300 s:\n{}\n{}",
            text(&q.stdout),
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    eprintln!(
        "the jobs ended after {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let log = std::fs::read_to_string(dir.join("merge.log"))
        .unwrap_or_else(|_| panic!("the merge job left no log\n{}", cluster.logs()));
    for k in 0..SHARDS {
        let shard_log = std::fs::read_to_string(dir.join(format!("shard-{k}.log"))).unwrap();
        assert!(
            shard_log.contains(&format!("shard {k}/4")),
            "shard {k}'s log:\n{shard_log}"
        );
    }
    eprintln!("{log}");
    same_as_whole(&dir.join("merged"), &log);
    drop(cluster);
    assert!(
        p.whole.exists(),
        "the whole match's folder is still there for the other tests"
    );
}
