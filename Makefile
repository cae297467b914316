# NIO Lab: `make help` lists the targets.
SHELL := /bin/bash
MVN ?= mvn -q -B -Dstyle.color=never
# Recipes that run Maven or java start with $(JDK): JAVA_HOME if set, else the newest JDK
# installed (scripts/jdk.sh), so that `make JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 test`
# builds and tests the lab on JDK 17.
JDK := source scripts/jdk.sh &&
PORT ?= 9988
N ?= 100
RUNS ?= 3
WORKERS ?= 4
# AOT=1: run-bench-* trains the AOT caches if needed (make aot) and runs server and client with them
AOT ?=
EXPERIMENTS := short-run long-run concurrency syscalls time-wait http network mistakes backend cold-start ffi uring architectures noise profile
EXPERIMENTS += vt

REPORTS_JAR := experiments/reports/target/reports.jar
# The course's tools (grade, handout, handin's questions, make test's summary): a small jar that
# javac alone builds from one JDK-only package, in seconds, so that a student's code that does not
# compile still gets its grade table. Its notes (make labs) read the experiments through the
# report generator, so they run from the course module's jar.
COURSE := course/src/main/java/niolab/course
TOOLS_JAR := target/course-tools.jar
TOOLS := java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar $(TOOLS_JAR)
COURSE_JAR := course/target/course.jar
JARS := lab-servers/target/lab-servers.jar echo-bench/target/echo-bench.jar netty-peers/target/netty-peers.jar $(REPORTS_JAR) $(COURSE_JAR) aot-training/target/aot-training.jar
SOURCES := $(shell find . -path ./target -prune -o -path '*/src/main/*' -type f -print) $(wildcard pom.xml */pom.xml */*/pom.xml)

.PHONY: help all test clean aot run-bench-lt run-bench-et run-bench-bio run-bench-mp bench-http experiments reports labs handout grade handin \
        $(addprefix exp-,$(EXPERIMENTS)) FORCE

# `##@ Group` lines head the groups; `#: NAME: ## ...` documents a target whose rule computes its name.
help: ## List the targets by what they are for, one line each
	@awk -v experiments='$(EXPERIMENTS)' -F':.*## ' \
	  '/^##@ / { printf "\n%s\n", substr($$0, 5); next } \
	   /^#: / { sub(/^#: /, "") } \
	   /^[a-zA-Z%_-]+:.*## / { gsub(/@EXPERIMENTS@/, experiments, $$2); printf "  %-16s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

##@ Run: build the lab, run a server against echo-bench

all: $(JARS) ## Build the jars again if a source changed: bin/*, bench.sh refuse a jar older than its sources

# The JDK of this build, recorded for bin/* (they run on it). Another JDK starts from clean:
# classes compiled for release 22 by one JDK must not stay in target/ for an older one (a fresh
# tree has no module output: its first make skips a Maven run that would clean nothing).
target/jdk-home: FORCE
	@$(JDK) $(if $(filter grade,$(MAKECMDGOALS)),$(if $(VERBOSE),,: ),)echo "using $$JDK_LABEL"; \
	  if [ "$$(cat $@ 2>/dev/null)" != "$$JAVA_HOME" ]; then \
	    if [ -n "$$(find . -mindepth 2 -maxdepth 3 -type d -name target -print -quit)" ]; then $(MVN) clean || exit 1; fi; \
	    mkdir -p target && echo "$$JAVA_HOME" >$@; fi

$(JARS) &: $(SOURCES) target/jdk-home
	@echo "building the jars: mvn -q -DskipTests package (quiet unless something fails)"
	@$(JDK) $(MVN) -DskipTests package
	@touch $(JARS)

run-bench-lt: all $(if $(filter 1,$(AOT)),aot) ## Serial echo-bench (RUNS=3 N=100) against the LT server, started and stopped here (AOT=1: JDK 25 AOT caches)
	@AOT=$(AOT) PORT=$(PORT) N=$(N) RUNS=$(RUNS) bash scripts/run-bench.sh lt

run-bench-et: all $(if $(filter 1,$(AOT)),aot) ## Serial echo-bench (RUNS=3 N=100) against the ET (epoll via JNA) server, started and stopped here
	@AOT=$(AOT) PORT=$(PORT) N=$(N) RUNS=$(RUNS) bash scripts/run-bench.sh et

run-bench-bio: all ## The same against bio: a platform thread per connection, blocking I/O (the course's first server)
	@PORT=$(PORT) N=$(N) RUNS=$(RUNS) bash scripts/run-bench.sh bio

run-bench-mp: all $(if $(filter 1,$(AOT)),aot) ## The same against mp: WORKERS=4 lt worker JVMs sharing the port (SO_REUSEPORT)
	@AOT=$(AOT) PORT=$(PORT) N=$(N) RUNS=$(RUNS) WORKERS=$(WORKERS) bash scripts/run-bench.sh mp

aot: all ## JDK 25+: train the AOT caches of lab-server and echo-bench (target/aot/); AOT=1 runs use them
	@bash scripts/aot-train.sh

.PHONY: reference bench-serial clean-reference
reference: ## Build the C reference server and serial client (reference/build/) with the system's C compiler
	@$(MAKE) -s -C reference

clean: clean-reference
clean-reference:
	@$(MAKE) -s -C reference clean

clean: ## Remove build output
	@$(JDK) $(MVN) clean

##@ Measure: benches, noise and profiles on this machine

# The serial comparison needs more than run-bench's 100 requests: 5000 unless N is given.
bench-serial: all reference ## echo-bench's serial client beside the C one, same server, pinned, interleaved, ratios paired by round (SERVER=NAME of the catalog's serial selection, N=5000 ROUNDS=6)
	@N=$(if $(filter file,$(origin N)),5000,$(N)) bash scripts/bench-serial.sh

bench-http: all ## HTTP /ping on the catalog's http selection (bin/lab-server catalog --selections) through echo-bench compare, wrk and echo-bench as load (ROUNDS=10 SLICE=1s SERVERS MODES LOADS RESULTS_DIR)
	@bash scripts/bench-http.sh

.PHONY: bench-vt
bench-vt: all reference ## vt against lt and C: keep-alive /ping CPU, keep-alive echo with the C client and echo-bench, short connections; pinned, random order per round, ratios paired by round (ROUNDS=6 DURATION=5 VT_OPTS=...)
	@bash scripts/bench-vt.sh

bench-ffi: all ## Cost per call (ns) of epoll_wait, read, send: C, JNA, FFM, FFM critical, SocketChannel; JMH, pinned (JDK 22+; CPU=1 JMH_ARGS=... RESULTS_DIR=...)
	@bash scripts/bench-ffi.sh

.PHONY: noise noise-hog
noise: all ## This machine's noise floor now: A/A, lt against lt, 50 keep-alive connections, 20 one-second slices, pinned (ROUNDS SLICE JSON=FILE)
	@PORT=$(PORT) bash scripts/noise.sh

noise-hog: all ## 20 A/A comparisons under a CPU hog on the servers' core: how many verdicts call a difference (REPEATS ROUNDS; RESULTS_DIR=experiments/results/noise/hog-repeats for exp-noise 3.6)
	@PORT=$(PORT) bash scripts/noise-hog.sh

.PHONY: noise-forks
noise-forks: all ## One run's interval against the next run's median, 1 fork against FORKS; calibrated slowdowns (--work-ns) called or not; for exp-noise 3.7-3.8 (CYCLES=6 cycles GAP_S=600 s apart; RESULTS_DIR)
	@bash scripts/noise-forks.sh

.PHONY: noise-calibrate
noise-calibrate: all ## exp-noise 3.9, with nothing else running: --work-ns calibrated to a 0.95 ratio, 20 A/A, 10 vt-lt, 10 slowdown, 3 until-decided runs (about 30 min; FORKS ROUNDS SLICE ...)
	@bash scripts/noise-calibrate.sh

.PHONY: profile
profile: all ## A flame graph of one server under load: make profile ARCH=NAME (bin/lab-server catalog) MODE=keepalive|pipelined|echo|short [DURATION=10s OPTS='--binding ffm'] (target/profile/)
	@$(if $(filter c,$(ARCH)),$(MAKE) -s reference &&) bash scripts/profile.sh

##@ Experiments: the reports, from runs or from the committed results

experiments: $(addprefix exp-,$(EXPERIMENTS)) ## Run every experiment and regenerate experiments/*.md

#: exp-NAME: ## Run one experiment and regenerate experiments/exp-NAME.md: NAME is one of @EXPERIMENTS@
$(addprefix exp-,$(EXPERIMENTS)): exp-%: all
	@bash experiments/scripts/exp-$*.sh

.PHONY: docs
docs: all ## Regenerate docs/cli/, the command-line reference (a page per command of bin/lab-server and bin/echo-bench), from the parsers' model
	@$(JDK) java -cp lab-servers/target/lab-servers.jar:echo-bench/target/echo-bench.jar:netty-peers/target/netty-peers.jar \
	  netty-peers/src/test/java/niolab/cli/CliReference.java docs/cli

reports: all ## Regenerate experiments/*.md, experiments/README.md's findings from the committed results and its table of experiments from Experiments.java, without running anything
	@$(JDK) java -jar $(REPORTS_JAR) experiments

##@ Course: the labs, the handout, the grader and the hand-in

labs: all ## Regenerate labs/instructor-notes.md and each sheet's checkpoint table from the labs' manifests (labs/NN-name/lab.tsv) and the committed results
	@$(JDK) java -jar $(COURSE_JAR) .

# The handout is a git repository of one commit, what the student starts from: `make handin`
# diffs the regions against it, and a sheet may say `git stash`. The commit's identity is the
# lab's own, so that it works on a machine where git has none; runs/ (this tree's records and
# grades) stays out.
# release 17: the JDK that builds the classic lab runs the tools, whichever JDK built them
$(TOOLS_JAR): $(wildcard $(COURSE)/*.java)
	@$(JDK) rm -rf target/course-tools && mkdir -p target && javac -nowarn --release 17 -d target/course-tools $(COURSE)/*.java && \
	  jar --create --file $@ --main-class niolab.course.Tools -C target/course-tools .

handout: $(TOOLS_JAR) ## Write the student handout, a git repository of one commit: make handout DEST=DIR (solutions cut, stubs in, teacher-only files out; SOLUTIONS=1 keeps them)
	@if [ -z "$(DEST)" ]; then echo "error: say where: make handout DEST=DIR" >&2; exit 2; fi
	@command -v git >/dev/null || { echo "error: make handout needs git (the handout is a git repository): install git" >&2; exit 1; }
	@$(JDK) $(TOOLS) handout $(if $(SOLUTIONS),--with-solutions) "$(DEST)"
	@rm -rf "$(DEST)/runs" && cd "$(DEST)" && git -c init.defaultBranch=main init -q && git add -A && \
	  git -c user.name="NIO Lab" -c user.email=niolab@localhost -c commit.gpgsign=false \
	    commit -q --no-verify -m "The handout as make handout wrote it: make handin diffs your regions against this commit"

grade: $(if $(LAB),target/jdk-home $(TOOLS_JAR)) ## Run lab N's checkpoints and score each: make grade LAB=N (or LAB=1,2 or LAB=all; a hint per failure; exit 0 only at full marks; Maven's output in target/grade.log, VERBOSE=1 shows it)
	@if [ -z "$(LAB)" ]; then echo "error: say which lab: make grade LAB=N, LAB=N,N... or LAB=all (labs/README.md lists them)" >&2; exit 2; fi
	@$(JDK) MVN="$(MVN)" VERBOSE="$(VERBOSE)" $(TOOLS) grade --lab "$(LAB)" $(if $(ONLY),--only "$(ONLY)")

handin: $(TOOLS_JAR) ## Write what a student hands in: make handin LAB=N DEST=FILE (region diffs, the grade table and whether it still holds, the runs kept by bin/record; FILES="a b" adds files)
	@LAB="$(LAB)" DEST="$(DEST)" FILES="$(FILES)" bash scripts/handin.sh

.PHONY: grade-times
grade-times: ## Time make grade in two fresh handouts, reference and stubs (LABS="2 3" by default, "1 2 3 4 5 6 7" for all; OUT=labs/grade-times.tsv); make labs quotes it
	@LABS="$(LABS)" OUT="$(OUT)" bash scripts/grade-times.sh

##@ Test

# One test run: Maven's verify with $(1) added, then the one-line summary of its reports; $$rc is Maven's.
# Modules in parallel, two threads per core: with one per core the course's long HandoutTest held one
# of two threads and every other module queued on the other; surefire forks within each.
suite = rm -rf */target/surefire-reports */*/target/surefire-reports; $(JDK) $(MVN) -T 2C verify $(1); rc=$$?; bash scripts/test-summary.sh

test: target/jdk-home $(TOOLS_JAR) ## Run the everyday test suite on the JDK picked (JAVA_HOME=... for another): units, every architecture's contracts, fuzz inputs
	@$(call suite,); echo "not run here: the extended tier (variants' contract runs, the course's gradings): make test-extended"; exit $$rc

.PHONY: test-extended
test-extended: target/jdk-home $(TOOLS_JAR) ## Run the extended tier (test-kit's @Extended): each variant's contract suites, the course's end-to-end gradings; CI runs it too
	@$(call suite,-Dtest.groups=extended); exit $$rc

.PHONY: test-all
test-all: target/jdk-home $(TOOLS_JAR) ## Run both tiers in one build: make test and make test-extended together
	@$(call suite,'-Dtest.groups=extended | !extended'); exit $$rc

.PHONY: fuzz
fuzz: target/jdk-home ## Fuzz every parser's Jazzer target (@FuzzTest) for FUZZ_SECONDS=60 each (FUZZ_TARGETS=REGEX for some): executions, coverage, findings (docs/fuzzing.md)
	@FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60) FUZZ_TARGETS='$(FUZZ_TARGETS)' MVN="$(MVN)" bash scripts/fuzz.sh

FORCE:
