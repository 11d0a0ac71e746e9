package corridor

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReviewFunnelSameSidePanics: Funnel's doc says it panics "if two
// consecutive regions do not lie on opposite sides of their portal".
// Here both regions lie west of the portal x = 2 (b inside a, even), but
// their centres differ along x, so travel() finds a direction and Funnel
// returns a path instead of panicking.
func TestReviewFunnelSameSidePanics(t *testing.T) {
	a, b := box2(0, 0, 2, 2), box2(1, 0, 2, 2)
	portal := Box{Min: Point{2, 0, 0}, Max: Point{2, 2, 0}}
	require.Panics(t, func() {
		Funnel(Point{0.5, 1, 0}, Point{1.5, 1, 0}, []Box{a, b}, []Box{portal}, nil)
	}, "regions %v and %v both lie west of portal %v", a, b, portal)
}
