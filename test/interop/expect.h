/* The messages the interop peers and navnode exchange, field by field. The
 * Go side (test/interop/expect_test.go) builds and checks the same values. */
#ifndef NAVNODE_INTEROP_EXPECT_H
#define NAVNODE_INTEROP_EXPECT_H

#include <stdint.h>

/* /goal_pose, peer -> navnode: geometry_msgs/PoseStamped */
#define GOAL_SEC 1700000000
#define GOAL_NANOSEC 123456789u
#define GOAL_FRAME "map"
#define GOAL_X 1.25
#define GOAL_Y (-2.5)
#define GOAL_Z 3.75
#define GOAL_QZ 0.3826834323650898
#define GOAL_QW 0.9238795325112867

/* /plan, navnode -> peer: nav_msgs/Path of PLAN_POSES poses; pose i has
 * stamp {42, i}, frame "map", position (0.5 i, -i, 0.25 i), identity rotation */
#define PLAN_SEC 42
#define PLAN_NANOSEC 7u
#define PLAN_FRAME "map"
#define PLAN_POSES 5

/* /map, navnode -> late-joining peer: nav_msgs/OccupancyGrid, transient local */
#define MAP_SEC 7
#define MAP_NANOSEC 8u
#define MAP_FRAME "map"
#define MAP_RESOLUTION 0.05f
#define MAP_WIDTH 200u
#define MAP_HEIGHT 100u
#define MAP_LOAD_SEC 5 /* info.map_load_time, apart from the header's stamp */
#define MAP_LOAD_NANOSEC 6u
#define MAP_ORIGIN_X (-5.0)
#define MAP_ORIGIN_Y (-2.5)
#define MAP_ORIGIN_Z 0.125
/* the origin's orientation: every component non-zero, so a field out of
 * place shows */
#define MAP_ORIGIN_QX 0.5
#define MAP_ORIGIN_QY (-0.5)
#define MAP_ORIGIN_QZ 0.5
#define MAP_ORIGIN_QW 0.5
static inline int8_t map_cell(uint32_t i) { return (int8_t)((int)(i % 102u) - 1); }

/* /cloud_in (peer -> navnode) and /cloud_out (navnode -> peer):
 * sensor_msgs/PointCloud2 of CLOUD_BYTES bytes in one row, little-endian,
 * dense, fields x y z intensity: float32 (7), count 1, at 0 4 8 12 */
#define CLOUD_BYTES (8u << 20)
#define CLOUD_SEC 9
#define CLOUD_NANOSEC 10u
#define CLOUD_FRAME "lidar"
#define CLOUD_POINT_STEP 16u
static inline uint8_t cloud_byte(uint32_t i) { return (uint8_t)(i * 31u + (i >> 11)); }

#endif
