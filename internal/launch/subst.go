package launch

import (
	"fmt"
	"strings"
)

// expand evaluates the $(...) substitutions in s, with eval giving the
// value of one substitution from its name and evaluated arguments.
func expand(s string, eval func(name string, args []string) (string, error)) (string, error) {
	p := substParser{s: s, eval: eval}
	var b strings.Builder
	for p.i < len(p.s) {
		if strings.HasPrefix(p.s[p.i:], "$(") {
			v, err := p.sub()
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			continue
		}
		b.WriteByte(p.s[p.i])
		p.i++
	}
	return b.String(), nil
}

// substParser reads substitutions out of s from offset i.
type substParser struct {
	s    string
	i    int
	eval func(name string, args []string) (string, error)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *substParser) skipSpaces() {
	for p.i < len(p.s) && isSpace(p.s[p.i]) {
		p.i++
	}
}

// sub reads and evaluates the $(name arg ...) at p.i.
func (p *substParser) sub() (string, error) {
	start := p.i
	p.i += 2
	p.skipSpaces()
	n := p.i
	for p.i < len(p.s) && !isSpace(p.s[p.i]) && p.s[p.i] != ')' {
		p.i++
	}
	name := p.s[n:p.i]
	var args []string
	for {
		p.skipSpaces()
		if p.i >= len(p.s) {
			return "", fmt.Errorf("%w: %q: unclosed $( at offset %d", ErrSubstitution, p.s, start)
		}
		if p.s[p.i] == ')' {
			p.i++
			break
		}
		arg, err := p.arg()
		if err != nil {
			return "", err
		}
		args = append(args, arg)
	}
	if name == "" {
		return "", fmt.Errorf("%w: %q: empty $() at offset %d", ErrSubstitution, p.s, start)
	}
	return p.eval(name, args)
}

// arg reads one argument of a substitution: a quoted string, or text and
// substitutions up to a space or the closing parenthesis.
func (p *substParser) arg() (string, error) {
	if q := p.s[p.i]; q == '\'' || q == '"' {
		end := strings.IndexByte(p.s[p.i+1:], q)
		if end < 0 {
			return "", fmt.Errorf("%w: %q: unclosed quote at offset %d", ErrSubstitution, p.s, p.i)
		}
		inner := p.s[p.i+1 : p.i+1+end]
		p.i += end + 2
		return expand(inner, p.eval)
	}
	var b strings.Builder
	for p.i < len(p.s) && !isSpace(p.s[p.i]) && p.s[p.i] != ')' {
		if strings.HasPrefix(p.s[p.i:], "$(") {
			v, err := p.sub()
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			continue
		}
		b.WriteByte(p.s[p.i])
		p.i++
	}
	return b.String(), nil
}

// splitWords splits a command line written in an args attribute into words
// before substitution, as launch does (ExecuteProcess._parse_cmdline,
// shlex.split on the text between substitutions): at spaces outside
// quotes and $(...); single quotes keep everything literally, double
// quotes let a backslash escape " and \, and a backslash outside quotes
// escapes the next character; quotes and escapes are removed. A
// substitution whose value holds spaces stays one word. An unclosed quote
// is an error, as in shlex.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, depth := false, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case depth > 0: // inside $(...): kept as written, for expand
			w.WriteByte(c)
			if c == ')' {
				depth--
			} else if c == '$' && i+1 < len(s) && s[i+1] == '(' {
				depth++
				w.WriteByte('(')
				i++
			}
			continue
		case c == '$' && i+1 < len(s) && s[i+1] == '(':
			depth++
			w.WriteString("$(")
			i++
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
				i++
				w.WriteByte(s[i])
			default:
				w.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
		case isSpace(c):
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			continue
		default:
			w.WriteByte(c)
		}
		inWord = true
	}
	if quote != 0 {
		return nil, fmt.Errorf("no closing quotation in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// parseBool reads a condition or flag value as launch does: true, false, 1
// or 0, in any case.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%w: %q is not a boolean (want true, false, 1 or 0)", ErrSubstitution, v)
}
