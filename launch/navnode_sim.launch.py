"""navnode with navsim, its simulator: the Python twin of navnode_sim.launch.xml.

    ros2 launch navnode navnode_sim.launch.py [world:=...] [scenario:=...]

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
            'world', default_value='depot',
            description='world navsim simulates: a built-in one (depot, warehouse, aerial) or a world file'),
        DeclareLaunchArgument(
            'scenario', default_value='',
            description="scenario file: start, goals and moving obstacles; empty for navsim's default"),
        DeclareLaunchArgument('use_sim_time', default_value='false', description='take time from /clock'),
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
            launch_arguments={'use_sim_time': LaunchConfiguration('use_sim_time')}.items(),
        ),
    ])
