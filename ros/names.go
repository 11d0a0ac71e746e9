package ros

import (
	"fmt"
	"strings"
)

// Name lengths rmw enforces.
const (
	maxTopicLen     = 247 // RMW_TOPIC_MAX_NAME_LENGTH: 255 minus the "rt/" and type suffix room
	maxNamespaceLen = 245
	maxNodeNameLen  = 255
)

// ValidateNodeName reports why name cannot be a ROS 2 node name: it must be
// non-empty, [A-Za-z0-9_] only, not start with a digit.
func ValidateNodeName(name string) error {
	switch {
	case name == "":
		return nameError("node name", name, "is empty")
	case len(name) > maxNodeNameLen:
		return nameError("node name", name, fmt.Sprintf("is longer than %d characters", maxNodeNameLen))
	case isDigit(name[0]):
		return nameError("node name", name, "starts with a digit")
	}
	for i := 0; i < len(name); i++ {
		if !isWordChar(name[i]) {
			return nameError("node name", name, fmt.Sprintf("has %q at %d; only letters, digits and _ are allowed", name[i], i))
		}
	}
	return nil
}

// ValidateNamespace reports why ns cannot be a node namespace: "/" or an
// absolute name without a trailing slash.
func ValidateNamespace(ns string) error {
	if ns == "/" {
		return nil
	}
	if len(ns) > maxNamespaceLen {
		return nameError("namespace", ns, fmt.Sprintf("is longer than %d characters", maxNamespaceLen))
	}
	return validateFull("namespace", ns)
}

// ValidateTopicName reports why name cannot be a fully qualified topic name.
func ValidateTopicName(name string) error {
	if len(name) > maxTopicLen {
		return nameError("topic name", name, fmt.Sprintf("is longer than %d characters", maxTopicLen))
	}
	return validateFull("topic name", name)
}

// validateFull applies rmw_validate_full_topic_name's rules.
func validateFull(what, name string) error {
	switch {
	case name == "":
		return nameError(what, name, "is empty")
	case name[0] != '/':
		return nameError(what, name, "is not absolute (does not start with /)")
	case name[len(name)-1] == '/':
		return nameError(what, name, "ends with /")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c != '/' && !isWordChar(c):
			return nameError(what, name, fmt.Sprintf("has %q at %d; only letters, digits, _ and / are allowed", c, i))
		case c == '/' && name[i+1] == '/':
			return nameError(what, name, fmt.Sprintf("has an empty token (//) at %d", i))
		case c == '/' && isDigit(name[i+1]):
			return nameError(what, name, fmt.Sprintf("has a token starting with a digit at %d", i+1))
		}
	}
	return nil
}

// ExpandTopicName turns a topic name as a user writes it into a fully
// qualified one for node node in namespace ns: "~" is the node's private
// namespace, {node} and {ns} are substituted, and a relative name is put in
// ns. The result is validated.
func ExpandTopicName(name, node, ns string) (string, error) {
	if err := validateInput(name); err != nil {
		return "", err
	}
	private := joinName(ns, node)
	out := name
	switch {
	case name == "~":
		out = private
	case strings.HasPrefix(name, "~/"):
		out = private + name[1:]
	}
	if ns == "/" { // "{ns}/x" is "/x", not "//x"
		out = strings.NewReplacer("{ns}/", "/", "{namespace}/", "/").Replace(out)
	}
	out = strings.NewReplacer("{node}", node, "{ns}", ns, "{namespace}", ns).Replace(out)
	if strings.Contains(out, "{") {
		return "", nameError("topic name", name, "has an unknown substitution (want {node}, {ns} or {namespace})")
	}
	if !strings.HasPrefix(out, "/") {
		out = joinName(ns, out)
	}
	if err := ValidateTopicName(out); err != nil {
		return "", err
	}
	return out, nil
}

// validateInput applies rcl_validate_topic_name's rules to a name that may
// be relative: ~ only first and followed by /, balanced {} without / inside.
func validateInput(name string) error {
	switch {
	case name == "":
		return nameError("topic name", name, "is empty")
	case isDigit(name[0]):
		return nameError("topic name", name, "starts with a digit")
	case len(name) > 1 && name[len(name)-1] == '/':
		return nameError("topic name", name, "ends with /")
	}
	inBraces := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '~':
			if i != 0 || (len(name) > 1 && name[1] != '/') {
				return nameError("topic name", name, "uses ~ other than as the leading ~/")
			}
		case c == '{':
			if inBraces {
				return nameError("topic name", name, "nests {")
			}
			inBraces = true
		case c == '}':
			if !inBraces {
				return nameError("topic name", name, "has } without {")
			}
			inBraces = false
		case c == '/' && inBraces:
			return nameError("topic name", name, "has / inside {}")
		case c != '/' && !isWordChar(c):
			return nameError("topic name", name, fmt.Sprintf("has %q at %d", c, i))
		}
	}
	if inBraces {
		return nameError("topic name", name, "has an unclosed {")
	}
	return nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordChar(c byte) bool {
	return c == '_' || isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func nameError(what, name, why string) error {
	return fmt.Errorf("%w: %s %q %s", ErrInvalidName, what, name, why)
}

// joinName puts a relative name in absolute namespace ns.
func joinName(ns, name string) string {
	if ns == "/" {
		return "/" + name
	}
	return ns + "/" + name
}
