// Package logging builds navnode's zap logger: the one place where log
// format and level are decided. Logs go to stderr, human-readable by
// default or as JSON lines on request.
package logging

import (
	"fmt"
	"io"
	"os"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// Options selects how logs are written.
type Options struct {
	Level  string    // debug, info, warn, error or fatal (case-insensitive); default info
	Format string    // "console" (default) or "json"
	Output io.Writer // default os.Stderr
}

// ParseLevel parses a level name as ROS 2 and zap spell them.
func ParseLevel(s string) (zapcore.Level, error) {
	if s == "" {
		return zapcore.InfoLevel, nil
	}
	var l zapcore.Level
	if err := l.UnmarshalText([]byte(strings.ToLower(s))); err != nil {
		return l, fmt.Errorf("logging: unknown level %q (want debug, info, warn, error or fatal)", s)
	}
	return l, nil
}

// New builds a logger from o.
func New(o Options) (*zap.Logger, error) {
	level, err := ParseLevel(o.Level)
	if err != nil {
		return nil, err
	}
	cfg := zapcore.EncoderConfig{
		TimeKey: "time", LevelKey: "level", NameKey: "logger", CallerKey: "caller",
		MessageKey: "msg", StacktraceKey: "stack", LineEnding: zapcore.DefaultLineEnding,
		EncodeTime: zapcore.ISO8601TimeEncoder, EncodeDuration: zapcore.StringDurationEncoder,
		EncodeCaller: zapcore.ShortCallerEncoder,
	}
	var enc zapcore.Encoder
	switch strings.ToLower(o.Format) {
	case "", "console":
		cfg.EncodeLevel = zapcore.CapitalLevelEncoder
		cfg.ConsoleSeparator = " "
		enc = zapcore.NewConsoleEncoder(cfg)
	case "json":
		cfg.EncodeLevel = zapcore.LowercaseLevelEncoder
		cfg.EncodeDuration = zapcore.SecondsDurationEncoder
		enc = zapcore.NewJSONEncoder(cfg)
	default:
		return nil, fmt.Errorf("logging: unknown format %q (want console or json)", o.Format)
	}
	out := o.Output
	if out == nil {
		out = os.Stderr
	}
	core := zapcore.NewCore(enc, zapcore.Lock(zapcore.AddSync(out)), level)
	return zap.New(core, zap.AddCaller(), zap.AddStacktrace(zapcore.ErrorLevel)), nil
}
