package ros

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/navnode/navnode/msgs/builtin_interfaces"
	"github.com/navnode/navnode/msgs/rcl_interfaces"
	"github.com/navnode/navnode/ros/rmw"
)

// startRosout creates the /rosout writer and makes the node's logger write
// every entry to it as well as to base.
func (n *Node) startRosout(base *zap.Logger) error {
	info := (&rcl_interfaces.Log{}).MsgType()
	w, err := n.mw.NewWriter("/rosout", info, rmw.Rosout, nil)
	if err != nil {
		return fmt.Errorf("ros: /rosout: %w", err)
	}
	core := &rosoutCore{LevelEnabler: base.Core(), shared: &rosoutShared{w: w}, name: n.LoggerName()}
	n.log = base.WithOptions(zap.WrapCore(func(c zapcore.Core) zapcore.Core { return zapcore.NewTee(c, core) }))
	return nil
}

// rosoutCore turns log entries into rcl_interfaces/msg/Log on /rosout.
// Failures to publish are dropped: logging them would recurse.
type rosoutCore struct {
	zapcore.LevelEnabler
	shared *rosoutShared
	name   string      // logger name, e.g. "robot1.navnode"
	fields []zap.Field // from With
}

var _ zapcore.Core = (*rosoutCore)(nil)

type rosoutShared struct {
	mu  sync.Mutex
	w   rmw.Writer
	buf []byte
}

func (c *rosoutCore) With(fields []zapcore.Field) zapcore.Core {
	return &rosoutCore{LevelEnabler: c.LevelEnabler, shared: c.shared, name: c.name,
		fields: append(append([]zap.Field{}, c.fields...), fields...)}
}

func (c *rosoutCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

func (c *rosoutCore) Write(e zapcore.Entry, fields []zapcore.Field) error {
	s := c.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	name := c.name
	if e.LoggerName != "" && e.LoggerName != c.name {
		name = strings.ReplaceAll(e.LoggerName, "/", ".")
	}
	msg := rcl_interfaces.Log{
		Stamp:    builtin_interfaces.Time{Sec: int32(e.Time.Unix()), Nanosec: uint32(e.Time.Nanosecond())},
		Level:    rosLevel(e.Level),
		Name:     name,
		Msg:      e.Message + fieldsText(append(append([]zap.Field{}, c.fields...), fields...)),
		File:     e.Caller.File,
		Function: e.Caller.Function,
		Line:     uint32(max(e.Caller.Line, 0)),
	}
	var err error
	if s.buf, err = msg.AppendCDR(s.buf[:0]); err == nil {
		_ = s.w.Write(s.buf)
	}
	return nil
}

func (c *rosoutCore) Sync() error { return nil }

// rosLevel maps zap levels to the rcl_interfaces/msg/Log constants.
func rosLevel(l zapcore.Level) uint8 {
	switch {
	case l <= zapcore.DebugLevel:
		return rcl_interfaces.Log_DEBUG
	case l == zapcore.InfoLevel:
		return rcl_interfaces.Log_INFO
	case l == zapcore.WarnLevel:
		return rcl_interfaces.Log_WARN
	case l == zapcore.ErrorLevel:
		return rcl_interfaces.Log_ERROR
	}
	return rcl_interfaces.Log_FATAL
}

// fieldsText renders structured fields after the message, " key=value"
// each, in a stable order.
func fieldsText(fields []zap.Field) string {
	if len(fields) == 0 {
		return ""
	}
	enc := zapcore.NewMapObjectEncoder()
	for _, f := range fields {
		f.AddTo(enc)
	}
	keys := make([]string, 0, len(enc.Fields))
	for k := range enc.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, enc.Fields[k])
	}
	return b.String()
}
