#!/usr/bin/env python3
"""A scripted USI engine for the `hayate match` tests.

Usage: fake_engine.py <mode> [black=<m1>,<m2>,...] [white=<m1>,<m2>,...] [score=<cp>] [mate=<n>]
                        [sleep=<ms>] [hang_from=<game>] [pidfile=<path>] [log=<path>]

Every mode answers `usi` (id name, one option, usiok) and `isready` (readyok), and ignores other commands until
`go`. On `go` it does what its mode says:

  script   plays its colour's moves in turn, cycling: its k-th move of the game is moves[k % len]
  illegal  plays 9i9a (never legal: a lance blocked by its own pawn, or an enemy piece)
  crash    writes to stderr and exits with status 3
  hang     stops reading and answering (sleeps for ever, even through `stop`)
  slow     answers only after `stop`, with `bestmove resign`
  flood    like script, but first writes 1 MB to stderr and 200 info lines to stdout on every go (and 1 MB of
           stderr at start)
  declare  answers `bestmove win` (an entering-king declaration)
  resign   answers `bestmove resign`
  nousiok  never answers `usi`

Options for every mode:
  score=<cp>       print `info depth 1 score cp <cp>` before each bestmove
  mate=<n>         print `info depth 1 score mate <n>` before each bestmove
  sleep=<ms>       wait this long before answering each go
  hang_from=<g>    from the g-th game on (counting usinewgame, from 1), hang on go as the hang mode does
  pidfile=<path>   append the process id to this file at start
  log=<path>       append every command received to this file
"""

import sys
import time

import os

mode = sys.argv[1] if len(sys.argv) > 1 else "script"
moves = {"b": [], "w": []}
extra = {}
for arg in sys.argv[2:]:
    key, _, value = arg.partition("=")
    if key in ("black", "white"):
        moves[key[0]] = [m for m in value.split(",") if m]
    else:
        extra[key] = value

if "pidfile" in extra:
    with open(extra["pidfile"], "a") as f:
        f.write("%d\n" % os.getpid())
log = open(extra["log"], "a") if "log" in extra else None
games = 0

out = sys.stdout


def send(line):
    out.write(line + "\n")
    out.flush()


def flood_stderr():
    chunk = "x" * 1023 + "\n"
    for _ in range(1024):
        sys.stderr.write(chunk)
    sys.stderr.flush()


position = ("b", 0)  # side to move at the start, number of moves played
if mode == "flood":
    flood_stderr()

for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if log:
        log.write(raw)
        log.flush()
    if cmd == "usinewgame":
        games += 1
    if cmd == "usi":
        if mode == "nousiok":
            continue
        send("id name Fake " + mode)
        send("id author nobody")
        send("option name USI_Variant type combo default shogi var shogi var minishogi var yarishogi")
        send("usiok")
    elif cmd == "isready":
        send("readyok")
    elif cmd == "quit":
        break
    elif cmd == "position":
        start = "b"
        if len(words) > 1 and words[1] == "sfen" and len(words) > 3:
            start = words[3]
        played = len(words) - words.index("moves") - 1 if "moves" in words else 0
        position = (start, played)
    elif cmd == "go":
        start, played = position
        to_move = start if played % 2 == 0 else ("w" if start == "b" else "b")
        if "sleep" in extra:
            time.sleep(int(extra["sleep"]) / 1000)
        if "score" in extra:
            send("info depth 1 score cp %s nodes 1 pv" % extra["score"])
        if "mate" in extra:
            send("info depth 1 score mate %s nodes 1 pv" % extra["mate"])
        if "hang_from" in extra and games >= int(extra["hang_from"]):
            while True:
                time.sleep(1)
        if mode == "illegal":
            send("bestmove 9i9a")
        elif mode == "crash":
            sys.stderr.write("fake engine: crashing on purpose\n")
            sys.stderr.flush()
            sys.exit(3)
        elif mode == "hang":
            while True:
                time.sleep(1)
        elif mode == "slow":
            for later in sys.stdin:
                if later.split()[:1] == ["stop"]:
                    break
            send("bestmove resign")
        elif mode == "declare":
            send("bestmove win")
        elif mode == "resign":
            send("bestmove resign")
        else:
            if mode == "flood":
                flood_stderr()
                for i in range(200):
                    send("info depth %d score cp 0 string %s" % (i, "y" * 200))
            cycle = moves[to_move]
            if not cycle:
                send("bestmove resign")
            else:
                send("bestmove " + cycle[(played // 2) % len(cycle)])
