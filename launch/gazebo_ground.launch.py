"""navnode on a ground robot in Gazebo through ros_gz_bridge: the Python twin of gazebo_ground.launch.xml.

    ros2 launch navnode gazebo_ground.launch.py [world:=default] [model:=vehicle_blue]

See gazebo_ground.launch.xml for what the Gazebo model needs and which
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
        DeclareLaunchArgument('model', default_value='vehicle_blue', description="the robot's model name in Gazebo"),
        DeclareLaunchArgument('lidar_link', default_value='lidar_link', description='link holding the 2D lidar'),
        DeclareLaunchArgument('lidar_sensor', default_value='gpu_lidar', description='name of the gpu_lidar sensor'),
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
                 '/scan@sensor_msgs/msg/LaserScan[gz.msgs.LaserScan'],
                ['/model/', LaunchConfiguration('model'), '/pose@tf2_msgs/msg/TFMessage[gz.msgs.Pose_V'],
                ['/model/', LaunchConfiguration('model'), '/pose_static@tf2_msgs/msg/TFMessage[gz.msgs.Pose_V'],
            ],
        ),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(
                PathJoinSubstitution([FindPackageShare('navnode'), 'launch', 'navnode.launch.py'])),
            launch_arguments={
                'use_sim_time': 'true',
                'robot_params_file': PathJoinSubstitution([FindPackageShare('navnode'), 'config', 'gazebo_ground.yaml']),
                'odom_topic': ['/model/', LaunchConfiguration('model'), '/odometry'],
                'scan_topic': ['/world/', LaunchConfiguration('world'), '/model/', LaunchConfiguration('model'),
                               '/link/', LaunchConfiguration('lidar_link'), '/sensor/',
                               LaunchConfiguration('lidar_sensor'), '/scan'],
                'tf_topic': ['/model/', LaunchConfiguration('model'), '/pose'],
                'tf_static_topic': ['/model/', LaunchConfiguration('model'), '/pose_static'],
            }.items(),
        ),
    ])
