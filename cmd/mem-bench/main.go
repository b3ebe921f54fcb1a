// Command mem-bench generates benchmark vaults and measures mem on them
// (docs/performance.md). Usually driven by scripts/bench.
//
//	mem-bench gen -n N -seed S -out DIR       write a deterministic vault
//	mem-bench run [-sizes 1000,10000,50000] [-runs 5] -mem PATH [-doc FILE]
//	mem-bench plainbleve -index DIR VAULT     the plain bleve reference
//	mem-bench load [-runs 5] [-raw] VAULT     time vault.Load in one process
//	mem-bench watch -mem PATH VAULT           the daemon: write→searchable, clients, idle
//	mem-bench serve -mem PATH VAULT            mem serve: MCP search over HTTP, 1 and 50 clients
//	mem-bench recall [-data DIR]              retrieval on every set of DIR: hit@k of MCP search and plain bleve
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/internal/benchgen/bench"
	"github.com/mem-md/mem/internal/benchgen/plainbleve"
	"github.com/mem-md/mem/pkg/vault"
)

const usage = `usage:
  mem-bench gen -n N [-seed S] -out DIR
  mem-bench run -mem PATH [-sizes 1000,10000,50000] [-runs 5] [-seed 1] [-dir .bench] [-doc docs/performance.md]
  mem-bench plainbleve [-lean] -index DIR VAULT
  mem-bench load [-runs 5] [-raw] [-cpuprofile FILE] VAULT
  mem-bench watch -mem PATH [-writes 200] [-runs 10] [-idle 60s] [-project ID] VAULT
  mem-bench serve -mem PATH [-calls 200] [-clients 50] VAULT
  mem-bench recall [-data ../shared/data] [-set locomo,realtalk] [-conv 26,30] [-queries] [-misses] [-held] [-dir DIR]`

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mem-bench:", err)
		if errors.Is(err, flag.ErrHelp) || errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New(usage)

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errUsage
	}
	fs := flag.NewFlagSet("mem-bench "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	switch args[0] {
	case "gen":
		n := fs.Int("n", 1000, "number of markdown files")
		seed := fs.Uint64("seed", 1, "random seed: the same seed gives the same bytes")
		out := fs.String("out", "", "directory to create (must not exist or be empty)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *out == "" {
			return fmt.Errorf("gen: -out DIR is required\n%w", errUsage)
		}
		st, err := benchgen.Write(*out, benchgen.Options{N: *n, Seed: *seed})
		if err != nil {
			return err
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	case "plainbleve":
		index := fs.String("index", "", "directory of the new index (must not exist)")
		lean := fs.Bool("lean", false, "the fields and analyzers of mem's mapping instead of bleve's default")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *index == "" || fs.NArg() != 1 {
			return fmt.Errorf("plainbleve: -index DIR and one VAULT are required\n%w", errUsage)
		}
		build := plainbleve.Index
		if *lean {
			build = plainbleve.IndexLean
		}
		n, err := build(fs.Arg(0), *index)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "indexed %d documents\n", n)
		return nil
	case "run":
		return runBench(fs, args[1:], stderr)
	case "recall":
		return runRecall(fs, args[1:], stdout)
	case "watch":
		mem := fs.String("mem", "", "the mem binary to measure")
		writes := fs.Int("writes", 200, "writes timed from write to searchable")
		runs := fs.Int("runs", 10, "timed runs of each client command")
		idle := fs.Duration("idle", time.Minute, "how long the idle CPU is measured")
		project := fs.String("project", "", "project of the hook render (default: the vault's first project note)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *mem == "" || fs.NArg() != 1 {
			return fmt.Errorf("watch: -mem PATH and one VAULT are required\n%w", errUsage)
		}
		res, err := bench.Watch(context.Background(), bench.WatchConfig{Mem: *mem, Vault: fs.Arg(0), Word: benchgen.QueryWord,
			Project: *project, Writes: *writes, Runs: *runs, Idle: *idle, Log: stderr})
		if err != nil {
			return err
		}
		bench.WriteWatch(stdout, res, *runs)
		return nil
	case "serve":
		mem := fs.String("mem", "", "the mem binary to measure")
		calls := fs.Int("calls", 200, "searches one client times (each of the clients then times half as many)")
		clients := fs.Int("clients", 50, "clients searching at once")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *mem == "" || fs.NArg() != 1 {
			return fmt.Errorf("serve: -mem PATH and one VAULT are required\n%w", errUsage)
		}
		res, err := bench.Serve(context.Background(), bench.ServeConfig{Mem: *mem, Vault: fs.Arg(0), Calls: *calls, Clients: *clients, Log: stderr})
		if err != nil {
			return err
		}
		bench.WriteServe(stdout, res)
		return nil
	case "load":
		runs := fs.Int("runs", 5, "loads to time, one after the other")
		raw := fs.Bool("raw", false, "keep each file's bytes (LoadOptions.Raw, as lint does)")
		profile := fs.String("cpuprofile", "", "write a CPU profile of the loads to this file")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *profile != "" {
			f, err := os.Create(*profile)
			if err != nil {
				return err
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return err
			}
			defer pprof.StopCPUProfile()
		}
		if fs.NArg() != 1 {
			return fmt.Errorf("load: one VAULT is required\n%w", errUsage)
		}
		return timeLoad(stdout, fs.Arg(0), *runs, vault.LoadOptions{Raw: *raw})
	}
	return fmt.Errorf("unknown command %q\n%w", args[0], errUsage)
}

func runBench(fs *flag.FlagSet, args []string, log io.Writer) error {
	sizes := fs.String("sizes", "1000,10000,50000", "comma-separated vault sizes (files)")
	runs := fs.Int("runs", 5, "timed runs per workload, after one warm-up")
	seed := fs.Uint64("seed", 1, "generator seed")
	dir := fs.String("dir", ".bench", "scratch directory (git-ignored)")
	mem := fs.String("mem", "", "the mem binary to measure")
	doc := fs.String("doc", "docs/performance.md", "file to write the tables into (empty: print only)")
	timeout := fs.Duration("timeout", 5*time.Minute, "limit per command")
	command := fs.String("command", "", "the command line that reproduces this run, written with the table")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *mem == "" || *runs < 1 {
		return fmt.Errorf("run: -mem PATH and -runs ≥ 1 are required\n%w", errUsage)
	}
	cfg := bench.Config{Seed: *seed, Runs: *runs, Timeout: *timeout, Log: log}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 100 {
			return fmt.Errorf("run: -sizes %q: give whole numbers of at least 100", *sizes)
		}
		cfg.Sizes = append(cfg.Sizes, n)
	}
	var err error
	for _, p := range []*string{mem, dir} {
		if *p, err = filepath.Abs(*p); err != nil {
			return err
		}
	}
	cfg.Mem, cfg.Dir = *mem, *dir
	if cfg.Self, err = os.Executable(); err != nil {
		return err
	}
	if *command == "" {
		*command = "mem-bench run " + strings.Join(args, " ")
	}
	machine := bench.Machine()
	fmt.Fprintln(log, "machine:", machine)
	return bench.Run(context.Background(), cfg, func(sr bench.SizeResult) error {
		block := bench.Markdown(sr, machine, *command, time.Now())
		fmt.Fprintln(log, block)
		if *doc == "" {
			return nil
		}
		old, err := os.ReadFile(*doc)
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		return vault.WriteFileAtomic(*doc, bench.Splice(old, sr.N, block), 0o644)
	})
}

// timeLoad reports how long vault.Load takes, run after run in one process
// (the first run is the one a command pays).
func timeLoad(w io.Writer, root string, runs int, opts vault.LoadOptions) error {
	v, err := vault.Open(root)
	if err != nil {
		return err
	}
	for i := range runs {
		start := time.Now()
		mems, err := v.Load(opts)
		if err != nil {
			return err
		}
		broken := 0
		for _, m := range mems {
			if !m.OK() {
				broken++
			}
		}
		fmt.Fprintf(w, "load %d: %d files (%d broken) in %s\n", i+1, len(mems), broken, time.Since(start).Round(time.Millisecond))
	}
	return nil
}
