"""navnode with navsim, its simulator: the Python twin of navnode_sim.launch.xml.

    ros2 launch navnode navnode_sim.launch.py [scenario:=...] [robot_params_file:=...] [world:=...]

A scenario needs navnode's parameters to match it: pass
robot_params_file:=config/sim_<scenario>.yaml (navsim -write-params writes
them). The default fits navsim's default: a ground robot in the depot.

The built-in worlds (depot, warehouse, simple) are read from navnode's
shared data: set NAVNODE_SHARED to that directory, or start from a
checkout with ../shared beside it. World files (worlds/city.yaml) need
nothing more; scenarios/ and worlds/ are installed into share/navnode.

Keep the two files in step: internal/launch's tests compare them.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument(
            'world', default_value='',
            description="world navsim simulates: a built-in one (depot, warehouse, simple) or a world file; "
                        "empty: the scenario's (depot without one)"),
        DeclareLaunchArgument(
            'scenario', default_value='',
            description="scenario file: start, goals and moving obstacles; empty for navsim's default"),
        DeclareLaunchArgument(
            'robot_params_file',
            default_value=PathJoinSubstitution([FindPackageShare('navnode'), 'config', 'sim_depot.yaml']),
            description="navnode's parameters for the scenario, over config/navnode.yaml: config/sim_SCENARIO.yaml"),
        DeclareLaunchArgument('use_sim_time', default_value='false', description='navnode stamps outputs with the latest input stamp instead of the wall clock (it does not read /clock); navsim accepts it and ignores it'),
        Node(
            package='navnode',
            executable='navsim',
            name='navsim',
            output='screen',
            arguments=[['-world=', LaunchConfiguration('world')], ['-scenario=', LaunchConfiguration('scenario')]],
            parameters=[{'use_sim_time': LaunchConfiguration('use_sim_time')}],
        ),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(
                PathJoinSubstitution([FindPackageShare('navnode'), 'launch', 'navnode.launch.py'])),
            launch_arguments={
                'robot_params_file': LaunchConfiguration('robot_params_file'),
                'use_sim_time': LaunchConfiguration('use_sim_time'),
            }.items(),
        ),
    ])
