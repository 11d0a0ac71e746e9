package launch

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// piece is a part of an attribute value as launch's substitution grammar
// (launch/frontend/grammar.lark) reads it: literal text, its backslash
// escapes removed, or a substitution with its arguments.
type piece struct {
	text string    // the text, when name is ""
	name string    // the substitution's name
	args [][]piece // the substitution's arguments
}

// evalFunc gives the value of one substitution from its name and its
// arguments, which it evaluates as it needs them.
type evalFunc func(name string, args subArgs) (string, error)

// subArgs are the arguments of one substitution, each evaluated only when
// asked for, as launch evaluates $(var x DEFAULT)'s default only when x is
// not set.
type subArgs struct {
	ps   [][]piece
	eval evalFunc
}

// len returns the number of arguments.
func (a subArgs) len() int { return len(a.ps) }

// get evaluates argument i.
func (a subArgs) get(i int) (string, error) { return evalPieces(a.ps[i], a.eval) }

// expand evaluates the $(...) substitutions in s.
func expand(s string, eval evalFunc) (string, error) {
	ps, err := parseSubst(s)
	if err != nil {
		return "", err
	}
	return evalPieces(ps, eval)
}

// evalPieces concatenates the values of ps.
func evalPieces(ps []piece, eval evalFunc) (string, error) {
	var b strings.Builder
	for _, p := range ps {
		if p.name == "" {
			b.WriteString(p.text)
			continue
		}
		v, err := eval(p.name, subArgs{ps: p.args, eval: eval})
		if err != nil {
			return "", err
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// parseSubst reads an attribute value as launch does: text and
// $(name arg ...) substitutions, whose name must be one Load knows and
// takes that many arguments. Arguments are set off by exactly one space
// and are text and substitutions up to a space or ")", or are quoted
// whole with ' or ", which may hold spaces and substitutions. A backslash
// is dropped before any character but a newline; it also keeps the next
// $, ( or ) from opening or closing a substitution, and a quote from
// closing a quoted argument.
func parseSubst(s string) ([]piece, error) {
	p := substParser{s: s}
	var out []piece
	for p.i < len(s) {
		if p.atSub() {
			sub, err := p.sub(0)
			if err != nil {
				return nil, err
			}
			out = append(out, sub)
			continue
		}
		start := p.i
		for p.i < len(s) && !p.atSub() {
			p.i++
		}
		out = append(out, piece{text: unescape(s[start:p.i])})
	}
	if len(out) == 0 {
		out = []piece{{}} // launch reads "" as one empty text
	}
	return out, nil
}

// substParser reads substitutions out of s from offset i.
type substParser struct {
	s string
	i int
}

func (p *substParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %q: "+format+" at offset %d", append(append([]any{ErrSubstitution, p.s}, args...), p.i)...)
}

// atSub reports whether a substitution starts at p.i: "$(" with no
// backslash before it.
func (p *substParser) atSub() bool {
	return strings.HasPrefix(p.s[p.i:], "$(") && !p.escaped()
}

// escaped reports whether the character at p.i follows a backslash.
func (p *substParser) escaped() bool { return p.i > 0 && p.s[p.i-1] == '\\' }

// sub reads the substitution at p.i; quote is the quote of the argument
// it is in, or 0.
func (p *substParser) sub(quote byte) (piece, error) {
	p.i += 2
	start := p.i
	for p.i < len(p.s) && (isLetter(p.s[p.i]) || p.i > start && isNameChar(p.s[p.i])) {
		p.i++
	}
	sub := piece{name: p.s[start:p.i]}
	if sub.name == "" {
		return piece{}, p.errorf("want a substitution name after $(")
	}
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
		arg, err := p.arg(quote)
		if err != nil {
			return piece{}, err
		}
		sub.args = append(sub.args, arg)
	}
	if p.i >= len(p.s) {
		return piece{}, p.errorf("unclosed $(%s", sub.name)
	}
	if p.s[p.i] != ')' {
		return piece{}, p.errorf("unexpected %q in $(%s) (arguments are set off by one space)", p.s[p.i], sub.name)
	}
	p.i++
	return sub, checkSubst(sub)
}

// checkSubst refuses a substitution Load does not know, or one given too
// few or too many arguments, as launch does while parsing.
func checkSubst(sub piece) error {
	n, ok := substitutionArgs[sub.name]
	if !ok {
		return fmt.Errorf("%w: $(%s) is not supported here (want var, env, find-pkg-share, dirname or filename)",
			ErrSubstitution, sub.name)
	}
	if len(sub.args) < n[0] || len(sub.args) > n[1] {
		return fmt.Errorf("%w: $(%s) takes %d to %d arguments, got %d", ErrSubstitution, sub.name, n[0], n[1], len(sub.args))
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameChar(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-' }

// arg reads one argument of a substitution: a quoted one (outside quotes
// only), or text and substitutions up to a space or ")".
func (p *substParser) arg(quote byte) ([]piece, error) {
	if quote == 0 && p.i < len(p.s) && (p.s[p.i] == '\'' || p.s[p.i] == '"') {
		return p.quoted(p.s[p.i])
	}
	var out []piece
	for p.i < len(p.s) {
		if p.atSub() {
			sub, err := p.sub(quote)
			if err != nil {
				return nil, err
			}
			out = append(out, sub)
			continue
		}
		text, ok := p.argText(quote)
		if !ok {
			break
		}
		out = append(out, piece{text: text})
	}
	if len(out) == 0 {
		return nil, p.errorf("want an argument")
	}
	return out, nil
}

// argText reads the text of an argument up to a space, a substitution, an
// unescaped ( or ), or a quote (the argument's own inside quotes).
func (p *substParser) argText(quote byte) (string, bool) {
	start := p.i
	for ; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		if c == '\\' && p.i+1 < len(p.s) && (p.s[p.i+1] == '\'' || p.s[p.i+1] == '"') {
			p.i++
			continue
		}
		if c == ' ' || (c == '(' || c == ')') && !p.escaped() || p.atSub() ||
			(c == '\'' || c == '"') && (quote == 0 || c == quote) {
			break
		}
	}
	return unescape(p.s[start:p.i]), p.i > start
}

// quoted reads an argument quoted with q: text, where \q does not close
// it, and substitutions, whose arguments cannot be quoted with q.
func (p *substParser) quoted(q byte) ([]piece, error) {
	open := p.i
	p.i++
	var out []piece
	for {
		switch {
		case p.i >= len(p.s):
			p.i = open
			return nil, p.errorf("unclosed quote")
		case p.s[p.i] == q:
			p.i++
			return out, nil
		case p.atSub():
			sub, err := p.sub(q)
			if err != nil {
				return nil, err
			}
			out = append(out, sub)
			continue
		}
		start := p.i
		for p.i < len(p.s) && p.s[p.i] != q && !p.atSub() {
			if p.s[p.i] == '\\' && p.i+1 < len(p.s) && p.s[p.i+1] == q {
				p.i++
			}
			p.i++
		}
		out = append(out, piece{text: unescape(p.s[start:p.i])})
	}
}

// unescape drops each backslash before a character other than a newline,
// as launch does to the text of an attribute: \\ is \, \x is x.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] != '\n' {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// splitWords splits a command line written in an args attribute into
// words, as launch does (ExecuteProcess._parse_cmdline): the attribute is
// read into text and substitutions first, backslash escapes removed, then
// each text is split as shlex.split does, and its first and last words
// join the substitutions they touch: x$(var y)z is one word. A
// substitution's value is never split, and a quote cannot span a
// substitution, as in launch, where the text before it then has no closing
// quotation. A text of spaces only ends a word, even an empty one: args=""
// and args=" $(var x)" start with an empty argument under launch.
func splitWords(s string) ([][]piece, error) {
	ps, err := parseSubst(s)
	if err != nil {
		return nil, err
	}
	var words [][]piece
	var w []piece
	next := func() {
		words = append(words, w)
		w = nil
	}
	for _, p := range ps {
		if p.name != "" {
			w = append(w, p)
			continue
		}
		toks, err := shlexSplit(p.text)
		if errors.Is(err, errNoClosingQuote) && len(ps) > 1 {
			return nil, fmt.Errorf("%w (the text around each substitution is split on its own: a quote cannot span one)", err)
		} else if err != nil {
			return nil, err
		}
		if len(toks) == 0 {
			next()
			continue
		}
		if first, _ := utf8.DecodeRuneInString(p.text); unicode.IsSpace(first) && len(w) > 0 {
			next()
		}
		w = append(w, piece{text: toks[0]})
		if len(toks) > 1 {
			next()
			for _, t := range toks[1 : len(toks)-1] {
				words = append(words, []piece{{text: t}})
			}
			w = []piece{{text: toks[len(toks)-1]}}
		}
		if last, _ := utf8.DecodeLastRuneInString(p.text); unicode.IsSpace(last) {
			next()
		}
	}
	if len(w) > 0 {
		next()
	}
	return words, nil
}

// errNoClosingQuote is shlexSplit's error for an unclosed quote.
var errNoClosingQuote = errors.New("no closing quotation")

// shlexSplit splits s into words as Python's shlex.split does: at spaces
// outside quotes; single quotes keep everything literally, double quotes
// let a backslash escape " and \, and a backslash outside quotes escapes
// the next character; quotes and escapes are removed. An unclosed quote or
// a backslash at the end is an error.
func shlexSplit(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
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
		case c == '\\':
			if i+1 == len(s) {
				return nil, fmt.Errorf("%w: no escaped character after the \\ ending %q", ErrSyntax, s)
			}
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
		return nil, fmt.Errorf("%w: %w in %q", ErrSyntax, errNoClosingQuote, s)
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
