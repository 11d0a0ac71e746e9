package msgs_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs"
	"github.com/navnode/navnode/msgs/internal/alltypes"
	"github.com/navnode/navnode/msgs/internal/msgtest"
)

func newLike(m msgs.Message) msgs.Message {
	return reflect.New(reflect.TypeOf(m).Elem()).Interface().(msgs.Message)
}

// TestRoundTrip encodes and decodes every generated type, into a fresh value
// and into a value that already holds other data (decoding reuses slices).
func TestRoundTrip(t *testing.T) {
	for _, e := range alltypes.Entries {
		name := e.New().MsgType().Name
		t.Run(e.Set+"/"+name, func(t *testing.T) {
			for _, v := range msgtest.Variants {
				want := e.New()
				msgtest.Fill(want, v)
				b, err := want.AppendCDR(nil)
				require.NoError(t, err)

				fresh := e.New()
				require.NoError(t, fresh.UnmarshalCDR(b))
				require.Equal(t, want, fresh)

				reused := e.New()
				msgtest.Fill(reused, msgtest.Variant{Seed: v.Seed + 100, MaxSeq: 500})
				require.NoError(t, reused.UnmarshalCDR(b))
				again, err := reused.AppendCDR(nil)
				require.NoError(t, err)
				require.Equal(t, b, again, "decoding into a used value")
			}
		})
	}
}

// TestTypeInfo checks the names every type reports.
func TestTypeInfo(t *testing.T) {
	for _, e := range alltypes.Entries {
		info := e.New().MsgType()
		require.Regexp(t, `^[a-z][a-z0-9_]*/msg/[A-Z][A-Za-z0-9]*$`, info.Name)
		require.Regexp(t, `^[a-z][a-z0-9_]*::msg::dds_::[A-Z][A-Za-z0-9]*_$`, info.DDSName)
		if e.Set == "humble" {
			require.Empty(t, info.Hash, "Humble has no type hashes")
		} else {
			require.Regexp(t, `^RIHS01_[0-9a-f]{64}$`, info.Hash)
		}
	}
}
