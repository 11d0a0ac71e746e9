package sim

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNavnodeParams(t *testing.T) {
	sc, err := LoadScenario("../scenarios/depot_box.yaml")
	require.NoError(t, err)
	w, err := ResolveWorld(sc.World, sc.WorldDir())
	require.NoError(t, err)
	p := NavnodeParams(sc, w)
	for name, want := range map[string]any{
		"mode": Ground, "resolution": 0.1, "origin_x": 0.0, "size_x": 30.2, "size_y": 15.35, "size_z": 2.0,
		"robot_radius": 0.4, "inflation_radius": 0.8, "robot_height": 0.4, "sensor_max_range": 12.0,
		"reached_tolerance": 0.15, "diagnostics_hz": 5.0,
	} {
		require.Equal(t, want, p.Get(name), name)
	}
	require.Nil(t, p.Get("min_altitude"))

	sc, err = LoadScenario("../scenarios/city_aerial.yaml")
	require.NoError(t, err)
	w, err = ResolveWorld(sc.World, sc.WorldDir())
	require.NoError(t, err)
	p = NavnodeParams(sc, w)
	require.Equal(t, Aerial, p.Get("mode"))
	require.Equal(t, 0.2, p.Get("resolution"))
	require.Equal(t, 0.55, p.Get("robot_radius"))
	require.Equal(t, 0.5, p.Get("min_altitude"))
	require.Equal(t, 5.5, p.Get("max_altitude"))
	lo, hi := sc.Band(w)
	require.Equal(t, 0.5, lo)
	require.Equal(t, 5.5, hi)

	sc.Navnode = map[string]any{"max_altitude": 4.0, "planner": "adstar"}
	p = NavnodeParams(sc, w)
	require.Equal(t, 4.0, p.Get("max_altitude"), "the scenario's navnode block wins")
	require.Equal(t, "adstar", p.Get("planner"))

	var b bytes.Buffer
	require.NoError(t, WriteParams(&b, Params{{"mode", "ground", "why"}, {"size_z", 2.0, "m"}, {"tick_hz", 12.5, ""},
		{"unknown_is_free", false, "b"}}, "line one\nline two"))
	require.Equal(t, `# line one
# line two
/**/navnode:
  ros__parameters:
    # why
    mode: "ground"
    # m
    size_z: 2.0
    tick_hz: 12.5
    # b
    unknown_is_free: false
`, b.String())
	require.Equal(t, "1000000000000000000000.0", paramValue(1e21))
	require.Equal(t, "true", paramValue(true))
}
