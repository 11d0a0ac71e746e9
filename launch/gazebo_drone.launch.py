"""navnode on a drone in Gazebo through ros_gz_bridge: the Python twin of gazebo_drone.launch.xml.

    ros2 launch navnode gazebo_drone.launch.py [world:=default] [model:=x500]

See gazebo_drone.launch.xml for what the Gazebo model needs and which
topics are bridged. Keep the two files in step: internal/launch's tests
compare them.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('world', default_value='default', description='Gazebo world name'),
        DeclareLaunchArgument('model', default_value='x500', description="the drone's model name in Gazebo"),
        DeclareLaunchArgument('lidar_link', default_value='lidar_link', description='link holding the 3D lidar'),
        DeclareLaunchArgument('lidar_sensor', default_value='lidar', description='name of the gpu_lidar sensor'),
        Node(
            package='ros_gz_bridge',
            executable='parameter_bridge',
            name='gz_bridge',
            output='screen',
            ros_arguments=['-p', ['qos_overrides./model/', LaunchConfiguration('model'),
                                        '/pose_static.publisher.durability:=transient_local']],
            arguments=[
                '/clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock',
                ['/model/', LaunchConfiguration('model'), '/odometry@nav_msgs/msg/Odometry[gz.msgs.Odometry'],
                ['/world/', LaunchConfiguration('world'), '/model/', LaunchConfiguration('model'),
                 '/link/', LaunchConfiguration('lidar_link'), '/sensor/', LaunchConfiguration('lidar_sensor'),
                 '/scan/points@sensor_msgs/msg/PointCloud2[gz.msgs.PointCloudPacked'],
                ['/model/', LaunchConfiguration('model'), '/pose@tf2_msgs/msg/TFMessage[gz.msgs.Pose_V'],
                ['/model/', LaunchConfiguration('model'), '/pose_static@tf2_msgs/msg/TFMessage[gz.msgs.Pose_V'],
            ],
        ),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(
                PathJoinSubstitution([FindPackageShare('navnode'), 'launch', 'navnode.launch.py'])),
            launch_arguments={
                'use_sim_time': 'true',
                'robot_params_file': PathJoinSubstitution([FindPackageShare('navnode'), 'config', 'gazebo_drone.yaml']),
                'odom_topic': ['/model/', LaunchConfiguration('model'), '/odometry'],
                'points_topic': ['/world/', LaunchConfiguration('world'), '/model/', LaunchConfiguration('model'),
                                 '/link/', LaunchConfiguration('lidar_link'), '/sensor/',
                                 LaunchConfiguration('lidar_sensor'), '/scan/points'],
                'tf_topic': ['/model/', LaunchConfiguration('model'), '/pose'],
                'tf_static_topic': ['/model/', LaunchConfiguration('model'), '/pose_static'],
            }.items(),
        ),
    ])
