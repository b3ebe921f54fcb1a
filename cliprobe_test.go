package main_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/urfave/cli/v3"
)

func TestReuse(t *testing.T) {
	sub := &cli.Command{Name: "s", Flags: []cli.Flag{&cli.BoolFlag{Name: "x"}, &cli.StringFlag{Name: "o"}, &cli.IntFlag{Name: "n", Value: 10}},
		Action: func(_ context.Context, c *cli.Command) error {
			fmt.Println("x", c.Bool("x"), c.IsSet("x"), "o", c.String("o"), c.IsSet("o"), "n", c.Int("n"), c.Args().Slice())
			return nil
		}}
	for _, args := range [][]string{{"m", "s", "--x", "-o", "f", "--n", "3", "a"}, {"m", "s", "b"}, {"m", "--json", "s"}} {
		root := &cli.Command{Name: "m", Flags: []cli.Flag{&cli.BoolFlag{Name: "json"}}, Commands: []*cli.Command{sub}}
		root.Run(context.Background(), args)
	}
}
