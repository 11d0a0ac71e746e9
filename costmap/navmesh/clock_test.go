package navmesh

import "time"

var epoch = time.Now()

func nowNanos() int64 { return int64(time.Since(epoch)) }
