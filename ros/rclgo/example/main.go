//go:build rclgo

// Command example runs a navnode ros.Node on the rclgo backend: it
// publishes /navnode_hello (std_msgs/String) once a second and logs what
// arrives on /chatter, so "ros2 topic echo /navnode_hello" and
// "ros2 run demo_nodes_cpp talker" show it working next to ROS 2 nodes.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"go.uber.org/zap"

	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/rclgo"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	mw, err := rclgo.New()
	if err != nil {
		return err
	}
	defer mw.Close()
	n, err := ros.NewNode(ctx, "navnode_rclgo_example", ros.WithMiddleware(mw), ros.WithArgs(os.Args[1:]))
	if err != nil {
		return err
	}
	defer n.Close()
	pub, err := ros.NewPublisher[std_msgs.String](n, "navnode_hello", ros.QoSDefault)
	if err != nil {
		return err
	}
	if _, err := ros.Subscribe[std_msgs.String](n, "chatter", ros.QoSDefault, func(m *std_msgs.String) {
		n.Logger().Info("heard", zap.String("data", m.Data))
	}); err != nil {
		return err
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if err := pub.Publish(&std_msgs.String{Data: fmt.Sprintf("hello from navnode %d", i)}); err != nil {
				return err
			}
		}
	}
}
