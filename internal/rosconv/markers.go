package rosconv

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/navnode/navnode/costmap/voxel"
	"github.com/navnode/navnode/internal/tf"
	"github.com/navnode/navnode/msgs/visualization_msgs"
)

// MarkerLookup returns the transform taking points in frame to the map
// frame at stamp (0: the latest), e.g. a closure over
// tf.Buffer.Lookup("map", frame, stamp).
type MarkerLookup func(frame string, stamp time.Duration) (tf.Transform, error)

// MarkerState remembers which marker ids are shapes in the costmap, per
// namespace, so that DELETE and DELETEALL can be turned into shape
// deletions. The zero value is empty and ready. It is not safe for
// concurrent use.
type MarkerState struct {
	ns map[string]map[int32]struct{}
}

// Len returns the number of shapes remembered.
func (s *MarkerState) Len() int {
	n := 0
	for _, ids := range s.ns {
		n += len(ids)
	}
	return n
}

// Forget drops one shape, for a caller whose Apply of its PutShape failed
// and left the map without it (voxel.Map.HasShape), or who deleted it
// otherwise. A refused replacement leaves the old shape in the map: keep
// it then, so that a later DELETE reaches it.
func (s *MarkerState) Forget(ns string, id int32) {
	if ids := s.ns[ns]; ids != nil {
		delete(ids, id)
		if len(ids) == 0 {
			delete(s.ns, ns)
		}
	}
}

func (s *MarkerState) add(ns string, id int32) {
	if s.ns == nil {
		s.ns = map[string]map[int32]struct{}{}
	}
	if s.ns[ns] == nil {
		s.ns[ns] = map[int32]struct{}{}
	}
	s.ns[ns][id] = struct{}{}
}

func (s *MarkerState) has(ns string, id int32) bool {
	_, ok := s.ns[ns][id]
	return ok
}

// MaxNamespace bounds a marker namespace's length in bytes: the shapes
// remembered then bound the memory their ids hold.
const MaxNamespace = 256

// MaxMarkerErrors is how many errors Markers returns, one per marker,
// before one more that counts the rest.
const MaxMarkerErrors = 16

// ShapeID returns the costmap shape id of marker (ns, id): ns + "/" + id.
func ShapeID(ns string, id int32) voxel.ShapeID {
	return voxel.ShapeID(ns + "/" + strconv.FormatInt(int64(id), 10))
}

// Markers turns a visualization_msgs/MarkerArray of obstacles into costmap
// updates, in message order, and updates state. Each marker:
//
//   - ADD (0, which is also MODIFY) of a CUBE becomes a voxel.BoxShape of
//     edge lengths scale; a SPHERE a voxel.SphereShape of radius
//     max(scale)/2 (an ellipsoid is covered by the sphere round its
//     largest axis); a CYLINDER a voxel.CylinderShape of radius
//     max(scale.x, scale.y)/2 and height scale.z. The pose, in
//     header.frame_id, is moved to the map frame with lookup at
//     header.stamp. It is a voxel.PutShape with id ShapeID(ns, id),
//     replacing any shape of that id.
//   - DELETE (2) of a remembered id becomes a voxel.DeleteShape; of an
//     unknown id, nothing (RViz ignores it too).
//   - DELETEALL (3) deletes every remembered shape of the marker's
//     namespace, or of every namespace when ns is empty: Marker.msg says
//     "deletes all objects (or those with the given ns if any)", and
//     several publishers clear one namespace this way. Shapes are deleted
//     in id order.
//
// A bad marker (another type or action, a namespace longer than
// MaxNamespace bytes, a scale that is not finite and > 0, a non-finite
// pose or zero quaternion, a stamp out of range, a frame lookup cannot
// resolve) yields an error naming it (wrapping ErrUnsupported, ErrInvalid
// or lookup's error) and is skipped, leaving any earlier shape of its id;
// the others still apply. Past MaxMarkerErrors errors, one more counts
// the rest, so that an array of bad markers costs no more to report than
// a few. Lifetime and frame_locked are ignored: a shape stays until
// deleted.
func Markers(msg *visualization_msgs.MarkerArray, lookup MarkerLookup, state *MarkerState) ([]voxel.Update, []error) {
	var ups []voxel.Update
	var errs []error
	more := 0
	refuse := func(err error) {
		if len(errs) < MaxMarkerErrors {
			errs = append(errs, err)
		} else {
			more++
		}
	}
	for i := range msg.Markers {
		m := &msg.Markers[i]
		if len(m.Ns) > MaxNamespace {
			refuse(fmt.Errorf("%w: marker %d: namespace of %d bytes (%.64q): at most %d", ErrInvalid, i, len(m.Ns), m.Ns, MaxNamespace))
			continue
		}
		switch m.Action {
		case visualization_msgs.Marker_ADD:
			u, err := markerShape(m, lookup)
			if err != nil {
				refuse(fmt.Errorf("marker %d (%s): %w", i, ShapeID(m.Ns, m.ID), err))
				continue
			}
			ups = append(ups, u)
			state.add(m.Ns, m.ID)
		case visualization_msgs.Marker_DELETE:
			if state.has(m.Ns, m.ID) {
				ups = append(ups, voxel.DeleteShape{ID: ShapeID(m.Ns, m.ID)})
				state.Forget(m.Ns, m.ID)
			}
		case visualization_msgs.Marker_DELETEALL:
			ups = state.deleteAll(m.Ns, ups)
		default:
			refuse(fmt.Errorf("%w: marker %d (%s) has action %d", ErrUnsupported, i, ShapeID(m.Ns, m.ID), m.Action))
		}
	}
	if more > 0 {
		errs = append(errs, fmt.Errorf("and %d more markers refused", more))
	}
	return ups, errs
}

// deleteAll appends a DeleteShape for every id of namespace ns (every
// namespace if ns is empty) and forgets them.
func (s *MarkerState) deleteAll(ns string, ups []voxel.Update) []voxel.Update {
	var names []string
	if ns != "" {
		names = []string{ns}
	} else {
		for name := range s.ns {
			names = append(names, name)
		}
		slices.Sort(names)
	}
	for _, name := range names {
		ids := make([]int32, 0, len(s.ns[name]))
		for id := range s.ns[name] {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			ups = append(ups, voxel.DeleteShape{ID: ShapeID(name, id)})
		}
		delete(s.ns, name)
	}
	return ups
}

// markerShape checks an ADD marker and returns its PutShape.
func markerShape(m *visualization_msgs.Marker, lookup MarkerLookup) (voxel.PutShape, error) {
	sc := m.Scale
	switch m.Type {
	case visualization_msgs.Marker_CUBE, visualization_msgs.Marker_SPHERE, visualization_msgs.Marker_CYLINDER:
	default:
		return voxel.PutShape{}, fmt.Errorf("%w: type %d: want CUBE (1), SPHERE (2) or CYLINDER (3)", ErrUnsupported, m.Type)
	}
	if !finite(sc.X, sc.Y, sc.Z) || !(sc.X > 0 && sc.Y > 0 && sc.Z > 0) {
		return voxel.PutShape{}, fmt.Errorf("%w: scale (%v, %v, %v) m: want finite and > 0", ErrInvalid, sc.X, sc.Y, sc.Z)
	}
	pose, err := Pose(&m.Pose)
	if err != nil {
		return voxel.PutShape{}, err
	}
	stamp, err := stampOf(&m.Header)
	if err != nil {
		return voxel.PutShape{}, err
	}
	frame := tf.FrameName(m.Header.FrameID)
	toMap, err := lookup(frame, stamp)
	if err != nil {
		return voxel.PutShape{}, fmt.Errorf("frame %.64q at %v: %w", frame, stamp, err)
	}
	p := toMap.Compose(pose).Pose()
	if o := p.Orientation; !tf.Finite(p.Position) || !finite(o.X, o.Y, o.Z, o.W) {
		return voxel.PutShape{}, fmt.Errorf("%w: pose in the map frame at %s, %+v is not finite", ErrInvalid, vecString(p.Position), p.Orientation)
	}
	var solid voxel.Solid
	switch m.Type {
	case visualization_msgs.Marker_CUBE:
		solid = &voxel.BoxShape{Pose: p, Size: Vector3(sc)}
	case visualization_msgs.Marker_SPHERE:
		solid = &voxel.SphereShape{Center: p.Position, Radius: max(sc.X, sc.Y, sc.Z) / 2}
	default:
		solid = &voxel.CylinderShape{Pose: p, Radius: max(sc.X, sc.Y) / 2, Height: sc.Z}
	}
	return voxel.PutShape{ID: ShapeID(m.Ns, m.ID), Solid: solid}, nil
}
