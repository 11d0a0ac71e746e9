"""navnode alone: the Python twin of navnode.launch.xml (see that file for the topics).

    ros2 launch navnode navnode.launch.py [name:=value ...]

Keep the two files in step: internal/launch's tests compare their
arguments, nodes, parameters and remaps.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument(
            'params_file',
            default_value=PathJoinSubstitution([FindPackageShare('navnode'), 'config', 'navnode.yaml']),
            description="parameters file with navnode's parameters (ros__parameters YAML)"),
        DeclareLaunchArgument(
            'robot_params_file',
            default_value=LaunchConfiguration('params_file'),
            description='second parameters file loaded after params_file, for per-robot overrides'),
        DeclareLaunchArgument('namespace', default_value='', description='namespace of the node, e.g. /uav1'),
        DeclareLaunchArgument('use_sim_time', default_value='false', description='stamp outputs with the latest input stamp instead of the wall clock (navnode does not read /clock)'),
        DeclareLaunchArgument('log_level', default_value='info', description='debug, info, warn, error or fatal'),
        DeclareLaunchArgument('map_topic', default_value='/map', description='occupancy grid input'),
        DeclareLaunchArgument('points_topic', default_value='/points', description='point cloud input'),
        DeclareLaunchArgument('scan_topic', default_value='/scan', description='laser scan input'),
        DeclareLaunchArgument('obstacles_topic', default_value='/obstacles', description='obstacle markers input'),
        DeclareLaunchArgument('odom_topic', default_value='/odom', description='odometry input'),
        DeclareLaunchArgument('goal_topic', default_value='/goal_pose', description='goal input'),
        DeclareLaunchArgument('tf_topic', default_value='/tf', description='transforms input'),
        DeclareLaunchArgument('tf_static_topic', default_value='/tf_static', description='static transforms input'),
        Node(
            package='navnode',
            executable='navnode',
            name='navnode',
            namespace=LaunchConfiguration('namespace'),
            output='screen',
            ros_arguments=['--log-level', LaunchConfiguration('log_level')],
            parameters=[
                LaunchConfiguration('params_file'),
                LaunchConfiguration('robot_params_file'),
                {'use_sim_time': LaunchConfiguration('use_sim_time')},
            ],
            remappings=[
                ('map', LaunchConfiguration('map_topic')),
                ('points', LaunchConfiguration('points_topic')),
                ('scan', LaunchConfiguration('scan_topic')),
                ('obstacles', LaunchConfiguration('obstacles_topic')),
                ('odom', LaunchConfiguration('odom_topic')),
                ('goal_pose', LaunchConfiguration('goal_topic')),
                ('tf', LaunchConfiguration('tf_topic')),
                ('tf_static', LaunchConfiguration('tf_static_topic')),
            ],
        ),
    ])
