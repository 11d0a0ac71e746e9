package dds

import (
	"fmt"
	"os"
	"strings"
)

// Distro is the ROS 2 distribution whose graph conventions the node
// follows: Humble's 24-byte GIDs or Jazzy's 16-byte GIDs and type hashes.
type Distro int

// Supported distributions.
const (
	Jazzy Distro = iota
	Humble
)

// ParseDistro reads a ROS_DISTRO value. Distributions after Jazzy use its
// conventions; Iron's are Jazzy's too.
func ParseDistro(s string) (Distro, error) {
	switch strings.ToLower(s) {
	case "humble":
		return Humble, nil
	case "", "iron", "jazzy", "kilted", "rolling":
		return Jazzy, nil
	}
	return Jazzy, fmt.Errorf("dds: unknown ROS distro %q (want humble or jazzy)", s)
}

func (d Distro) String() string { return [...]string{"jazzy", "humble"}[d] }

// Discovery ranges of ROS_AUTOMATIC_DISCOVERY_RANGE (Jazzy).
const (
	RangeSubnet        = "SUBNET"
	RangeLocalhost     = "LOCALHOST"
	RangeOff           = "OFF"
	RangeSystemDefault = "SYSTEM_DEFAULT"
)

// Config says how a node joins DDS. The zero value is Jazzy on domain 0
// with the SUBNET range: multicast discovery, as rmw_cyclonedds sets it.
type Config struct {
	DomainID uint32 // ROS_DOMAIN_ID
	Distro   Distro
	Enclave  string // security enclave named in USER_DATA; "/" when empty
	// Range is ROS_AUTOMATIC_DISCOVERY_RANGE; empty means SUBNET.
	Range string
	// StaticPeers are ROS_STATIC_PEERS: more hosts to discover by unicast.
	StaticPeers []string
	// LocalhostOnly is Humble's ROS_LOCALHOST_ONLY=1: use 127.0.0.1 only.
	// (From Jazzy on, ConfigFromEnv reads that variable as the LOCALHOST
	// range instead, as rcl does.)
	LocalhostOnly bool
	// CycloneURI is appended to the generated CycloneDDS configuration, as
	// rmw_cyclonedds appends $CYCLONEDDS_URI: XML or file:// URIs,
	// comma-separated. Later settings win.
	CycloneURI string
}

// LoopbackInterface is a CycloneDDS configuration fragment that binds to
// the loopback interface, for Config.CycloneURI.
const LoopbackInterface = `<CycloneDDS><Domain Id="any"><General><Interfaces>` +
	`<NetworkInterface address="127.0.0.1"/></Interfaces></General></Domain></CycloneDDS>`

// Loopback returns a configuration for processes on one machine that talk
// over the loopback interface only, with unicast discovery: what tests and
// single-host simulations use. Peers must be configured alike (for
// CycloneDDS: AllowMulticast false, ParticipantIndex auto, Peer localhost,
// NetworkInterface 127.0.0.1).
func Loopback(domain uint32) Config {
	return Config{DomainID: domain, Range: RangeLocalhost, CycloneURI: LoopbackInterface}
}

// ConfigFromEnv reads ROS_DISTRO, ROS_AUTOMATIC_DISCOVERY_RANGE,
// ROS_STATIC_PEERS, ROS_LOCALHOST_ONLY and CYCLONEDDS_URI. The domain id
// is left to the caller, which owns ROS_DOMAIN_ID parsing.
func ConfigFromEnv() (Config, error) {
	d, err := ParseDistro(os.Getenv("ROS_DISTRO"))
	if err != nil {
		return Config{}, err
	}
	c := Config{
		Distro:        d,
		Range:         strings.ToUpper(os.Getenv("ROS_AUTOMATIC_DISCOVERY_RANGE")),
		LocalhostOnly: os.Getenv("ROS_LOCALHOST_ONLY") == "1",
		CycloneURI:    os.Getenv("CYCLONEDDS_URI"),
	}
	for _, p := range strings.Split(os.Getenv("ROS_STATIC_PEERS"), ";") {
		if p = strings.TrimSpace(p); p != "" {
			c.StaticPeers = append(c.StaticPeers, p)
		}
	}
	if c.LocalhostOnly && d != Humble {
		// rcl from Jazzy on: ROS_LOCALHOST_ONLY=1 is the LOCALHOST range,
		// and the range and static peers set beside it are ignored.
		c.LocalhostOnly, c.Range, c.StaticPeers = false, RangeLocalhost, nil
	}
	switch c.Range {
	case "", RangeSubnet, RangeLocalhost, RangeOff, RangeSystemDefault:
	default:
		return c, fmt.Errorf("dds: ROS_AUTOMATIC_DISCOVERY_RANGE=%q: want SUBNET, LOCALHOST, OFF or SYSTEM_DEFAULT", c.Range)
	}
	return c, nil
}

// CycloneConfig returns the configuration navnode passes to
// dds_create_domain: the fragment rmw_cyclonedds generates for the
// discovery settings, then CycloneURI. As CYCLONEDDS_URI, it configures a
// CycloneDDS program alike.
func (c Config) CycloneConfig() string {
	var frag strings.Builder
	peers := func(extra ...string) {
		frag.WriteString("<ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>")
		if all := append(extra, c.StaticPeers...); len(all) > 0 {
			frag.WriteString("<Peers>")
			for _, p := range all {
				fmt.Fprintf(&frag, `<Peer address="%s"/>`, xmlEscape(p))
			}
			frag.WriteString("</Peers>")
		}
	}
	switch {
	case c.LocalhostOnly:
		frag.WriteString(`<General><Interfaces><NetworkInterface address="127.0.0.1"/></Interfaces></General>`)
	case c.Range == RangeLocalhost:
		frag.WriteString("<General><AllowMulticast>false</AllowMulticast></General><Discovery>")
		peers("localhost")
		frag.WriteString("</Discovery>")
	case c.Range == RangeOff:
		fmt.Fprintf(&frag, "<General><AllowMulticast>false</AllowMulticast></General>"+
			"<Discovery><ParticipantIndex>none</ParticipantIndex><Tag>ros_discovery_off_%d</Tag></Discovery>", os.Getpid())
	case c.Range == "" || c.Range == RangeSubnet:
		frag.WriteString("<Discovery>")
		peers()
		frag.WriteString("</Discovery>")
	}
	parts := []string{}
	if frag.Len() > 0 {
		parts = append(parts, `<CycloneDDS><Domain Id="any">`+frag.String()+"</Domain></CycloneDDS>")
	}
	if c.CycloneURI != "" {
		parts = append(parts, c.CycloneURI)
	}
	return strings.Join(parts, ",")
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
