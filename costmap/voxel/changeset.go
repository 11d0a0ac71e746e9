package voxel

// Change is one voxel whose cost changed.
type Change struct {
	Voxel    Key
	Old, New Cost
}

// ChangeSet is what one update changed. Planners repair from it; nothing
// needs to compare maps.
type ChangeSet struct {
	Rose []Change // voxels whose cost went up, each once
	Fell []Change // voxels whose cost went down, each once
	// Regions are boxes in which any voxel may have changed; Rose and Fell
	// list no voxel inside them. They come from bulk changes (a new static
	// map) that would take gigabytes to list voxel by voxel: read the map
	// inside them. Empty for sensor, shape, decay and window updates.
	Regions []Box
	// Bounds holds every listed voxel and every region; empty when nothing
	// changed.
	Bounds Box
	// Input counts what the update skipped or altered, for diagnostics.
	Input InputStats
}

// InputStats counts the points (or ranges) of a sensor update by fate.
type InputStats struct {
	Points    int // used: marked, or cast as a clearing ray when beyond MaxRange
	Merged    int // shared an endpoint voxel with an earlier point: no ray of their own
	NonFinite int // NaN or infinite coordinates (or NaN, -Inf ranges): skipped
	TooClose  int // nearer than MinRange: skipped
	Clipped   int // beyond MaxRange: cleared up to MaxRange, marked nothing
	Floor     int // returns below the sensor's floor (Cloud.FloorZ): cleared up to, marked nothing
	Outside   int // outside the addressable world: skipped
	Refused   int // voxels not updated because the memory limit was reached
}

// Len returns the number of listed voxels.
func (cs *ChangeSet) Len() int { return len(cs.Rose) + len(cs.Fell) }

// Empty reports whether nothing changed.
func (cs *ChangeSet) Empty() bool { return cs.Len() == 0 && len(cs.Regions) == 0 }

func (cs *ChangeSet) reset() {
	cs.Rose, cs.Fell, cs.Regions = cs.Rose[:0], cs.Fell[:0], cs.Regions[:0]
	cs.Bounds = emptyBox
	cs.Input = InputStats{}
}

// inRegions reports whether k is inside one of the regions.
func (cs *ChangeSet) inRegions(k Key) bool {
	for _, r := range cs.Regions {
		if r.Contains(k) {
			return true
		}
	}
	return false
}

func (cs *ChangeSet) addRegion(b Box) {
	if b.Empty() {
		return
	}
	cs.Regions = append(cs.Regions, b)
	cs.Bounds = cs.Bounds.Union(b)
}
