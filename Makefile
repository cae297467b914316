# NIO Lab: `make help` lists the targets.
SHELL := /bin/bash
MVN ?= mvn -q -B -Dstyle.color=never
PORT ?= 9988
N ?= 100
RUNS ?= 3
export PORT N RUNS

JARS := lab-servers/target/lab-servers.jar echo-bench/target/echo-bench.jar netty-peers/target/netty-peers.jar
SOURCES := $(shell find native-epoll lab-servers echo-bench netty-peers -path '*/src/main/*' -type f 2>/dev/null) \
           $(wildcard pom.xml */pom.xml)

.PHONY: help all test clean run-bench-lt run-bench-et run-bench-mp bench-http experiments reports $(addprefix exp-,$(EXPERIMENTS))

help: ## List the targets, one line each
	@grep -hE '^[a-zA-Z%_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'
	@printf '  %-16s %s\n' exp-NAME "Run one experiment and regenerate experiments/exp-NAME.md: NAME is one of $(EXPERIMENTS)"

all: $(JARS) ## Build everything: bin/lab-server and bin/echo-bench work afterwards

$(JARS) &: $(SOURCES)
	$(MVN) -DskipTests package
	@touch $(JARS)

test: ## Run the whole test suite (JUnit: echo and HTTP contracts per architecture and Netty peer, fuzz, echo-bench)
	@rm -rf */target/surefire-reports
	@$(MVN) verify; rc=$$?; bash scripts/test-summary.sh; exit $$rc

run-bench-lt: all ## Serial echo-bench (RUNS=3 N=100) against the LT server, started and stopped here
	@bash scripts/run-bench.sh lt

run-bench-et: all ## Serial echo-bench (RUNS=3 N=100) against the ET (epoll via JNA) server, started and stopped here
	@bash scripts/run-bench.sh et

run-bench-mp: all ## The same against mp: WORKERS=4 lt worker JVMs sharing the port (SO_REUSEPORT)
	@bash scripts/run-bench.sh mp

EXPERIMENTS := short-run long-run concurrency syscalls time-wait http uring

experiments: $(addprefix exp-,$(EXPERIMENTS)) ## Run every experiment and regenerate experiments/*.md (about 30 min)

# exp-NAME: run one experiment, regenerate experiments/exp-NAME.md (listed by make help)
$(addprefix exp-,$(EXPERIMENTS)): exp-%: all
	@bash experiments/scripts/exp-$*.sh

reports: all ## Regenerate experiments/*.md from the committed results, without running anything
	@java -cp echo-bench/target/echo-bench.jar niolab.bench.report.ExperimentReports experiments

bench-http: all ## HTTP /ping on lt, et, mp, netty-nio, netty-epoll with wrk and echo-bench, pinned (DURATION=5s ROUNDS=3 RESULTS_DIR=...)
	@bash scripts/bench-http.sh

clean: ## Remove build output
	$(MVN) clean
