# navnode: make deps (as root, once), then make test. See README.md.
SHELL := bash
GO ?= go
FUZZTIME ?= 30000x
FOXGLOVE := test/interop/foxglove

# Debian packages the build and tests need, beyond Go, which the machine has.
# Node.js and npm come from apt only when they are not already installed.
APT_PACKAGES := iproute2 pkg-config cyclonedds-dev cyclonedds-tools libfastrtps-dev libfastcdr-dev fastddsgen g++ colcon python3-colcon-ros python3-colcon-package-selection python3-colcon-bash ament-cmake

.PHONY: deps build test vet generate check-generated fuzz bench peers demo

## deps: install every apt and npm package and Go module the build and tests need (idempotent, as root)
deps:
	@need="$(APT_PACKAGES)"; \
	command -v node >/dev/null && command -v npm >/dev/null || need="$$need nodejs npm"; \
	need=$$(for p in $$need; do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$need" ]; then \
		echo "deps: apt-get install" $$need; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$need; \
	fi
	cd $(FOXGLOVE) && npm ci --no-audit --no-fund --loglevel=error
	$(GO) mod download

## build: compile everything
build:
	$(GO) build ./...

## vet: go vet
vet:
	$(GO) vet ./...

## generate: regenerate msgs/ from ../shared/ros2-interfaces
generate:
	$(GO) generate ./msgs/...

## check-generated: fail if regenerating msgs/ changes any file
check-generated:
	scripts/check-generated

## peers: build the interop peer programs into build/interop
INTEROP := build/interop
peers: $(INTEROP)/cyclone-peer $(INTEROP)/cyclone-evil $(INTEROP)/fastdds-peer

$(INTEROP)/cyclone-peer: test/interop/cyclone/peer.c test/interop/idl/ros.idl test/interop/expect.h
	@mkdir -p $(INTEROP)/gen-cyclone
	idlc -t -x final -o $(INTEROP)/gen-cyclone test/interop/idl/ros.idl
	gcc -O2 -Wall -o $@ $< $(INTEROP)/gen-cyclone/ros.c -I$(INTEROP)/gen-cyclone -Itest/interop \
		$$(pkg-config --cflags --libs CycloneDDS)

$(INTEROP)/cyclone-evil: test/interop/cyclone/evil.c test/interop/cyclone/evil.idl
	@mkdir -p $(INTEROP)/gen-evil
	idlc -t -x final -o $(INTEROP)/gen-evil test/interop/cyclone/evil.idl
	gcc -O2 -Wall -o $@ $< $(INTEROP)/gen-evil/evil.c -I$(INTEROP)/gen-evil $$(pkg-config --cflags --libs CycloneDDS)

$(INTEROP)/fastdds-peer: test/interop/fastdds/peer.cpp test/interop/idl/ros.idl test/interop/expect.h
	@mkdir -p $(INTEROP)/gen-fastdds
	fastddsgen -cs -replace -d $(INTEROP)/gen-fastdds test/interop/idl/ros.idl
	g++ -std=c++17 -O1 -Wall -o $@ $< $(INTEROP)/gen-fastdds/ros.cxx $(INTEROP)/gen-fastdds/rosPubSubTypes.cxx \
		-I$(INTEROP)/gen-fastdds -Itest/interop -lfastrtps -lfastcdr -pthread

## test: the README's test command: regeneration check, vet, every test with -race in an
## isolated network namespace (DDS traffic stays on loopback), the planners' full Moving AI
## runs and the navmesh property tests without the race detector (it slows them tenfold), fuzz smoke run
test: check-generated vet peers
	scripts/netns $(GO) test -race -count=1 ./...
	$(GO) test -count=1 ./planners/ ./costmap/navmesh/ ./cmd/navbench/
	scripts/colcon-check
	FUZZTIME=$(FUZZTIME) scripts/fuzz

## fuzz: run every fuzz target for FUZZTIME executions or seconds (e.g. make fuzz FUZZTIME=2000000x)
fuzz:
	FUZZTIME=$(FUZZTIME) scripts/fuzz

## demo: the README's first command: install what is needed, build, fly an aerial robot across
## worlds/city.yaml for about 30 s while obstacles appear on its path (navsim + navnode over DDS on
## loopback, from launch/navnode_sim.launch.xml), print the summary and draw docs/demo.svg
DEMO_BIN := build/bin
demo: deps
	$(GO) build -o $(DEMO_BIN)/ ./cmd/navnode ./cmd/navsim ./cmd/navlaunch ./cmd/navreport
	@mkdir -p build
	NAVSIM_LOG=build/demo.log ROS_DOMAIN_ID=$${ROS_DOMAIN_ID:-77} ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST \
		scripts/netns $(DEMO_BIN)/navlaunch -exit-on-first -bin $(DEMO_BIN) launch/navnode_sim.launch.xml \
		scenario:=scenarios/demo.yaml robot_params_file:=config/sim_demo.yaml
	$(DEMO_BIN)/navreport -log build/demo.log -svg docs/demo.svg

## bench: the benchmark command; results go in README.md
bench: peers
	$(GO) test -run '^$$' -bench . -benchtime 2s -count 3 ./msgs/
	$(GO) test -run '^$$' -bench . -benchtime 2x -count 3 -timeout 30m ./costmap/voxel/
	$(GO) test -run '^$$' -bench . -benchtime 3x -count 3 -timeout 30m ./planners/
	$(GO) test -run '^$$' -bench . -benchtime 20x -count 3 ./costmap/navmesh/...
	scripts/navbench
	scripts/netns $(GO) test -run '^$$' -bench . -benchtime 14000x -count 3 ./test/interop/
	$(GO) test -run '^$$' -bench . -benchtime 10x -count 3 ./replanner/
	scripts/netns $(GO) test -run '^$$' -bench ObstacleToPlan -benchtime 200x ./test/node/
	scripts/netns $(GO) test -run '^$$' -bench Soak -benchtime 200x -timeout 3h ./test/node/
