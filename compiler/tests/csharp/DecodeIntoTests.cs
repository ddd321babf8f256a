// DecodeInto overwrites in place and reuses what it can.
using System;
using System.Collections.Generic;
using Pkt;
using Test.Everything;

namespace PktTests
{
    public static class DecodeIntoTests
    {
        public static void Lists()
        {
            var target = Fixtures.MakeTree(1, 3);
            var kids = target.Children.ToArray();
            var list = target.Children;

            // Same count: the same element objects are decoded into.
            target.DecodeInto(Fixtures.MakeTree(2, 3).ToArray());
            Check.True(ReferenceEquals(list, target.Children), "list instance kept");
            for (int i = 0; i < 3; i++)
            {
                Check.True(ReferenceEquals(kids[i], target.Children[i]), "element " + i + " reused");
                Check.Equal(20 + i, target.Children[i].Value, "element " + i + " overwritten");
            }

            // Fewer: removed, nothing stale left in the list.
            target.DecodeInto(Fixtures.MakeTree(3, 1).ToArray());
            Check.Equal(1, target.Children.Count, "shrunk");
            Check.True(ReferenceEquals(kids[0], target.Children[0]), "first kept");
            Check.Equal(30, target.Children[0].Value, "first overwritten");

            // More: appended.
            target.DecodeInto(Fixtures.MakeTree(4, 5).ToArray());
            Check.Equal(5, target.Children.Count, "grown");
            Check.Equal(44, target.Children[4].Value, "appended element");
            Check.Bytes(Fixtures.MakeTree(4, 5).ToArray(), target.ToArray(), "equals a fresh decode");

            // A nested message field is decoded into the existing instance.
            var e = new Everything();
            var leaf = e.Leaf;
            e.DecodeInto(Fixtures.MakeEverything().ToArray());
            Check.True(ReferenceEquals(leaf, e.Leaf), "nested message reused");
            Check.Bytes(Fixtures.MakeEverything().ToArray(), e.ToArray(), "DecodeInto equals decode");

            // Old data without trailing fields resets them to defaults.
            var d = new Defaults { VBool = false, VU8 = 1, Text = "x" };
            d.DecodeInto(Hex.Parse("01 00 00 00 00"));
            Check.Equal(false, d.VBool, "read");
            Check.Equal((byte)255, d.VU8, "reset to declared default");
            Check.Equal("anonymous", d.Text, "string reset");
            var full = Fixtures.MakeEverything();
            full.DecodeInto(Hex.Parse("00 00 00 00"));
            Check.Bytes(new Everything().ToArray(), full.ToArray(), "everything reset to defaults");
            Check.Equal(0, full.ListLeaf.Count, "list cleared");
        }

        public static void NestedUnionMapBytes()
        {
            var e = Fixtures.MakeEverything();
            var cmd = e.Command;
            var blob = e.Blob;
            var map = e.MapU8;
            var src = Fixtures.MakeEverything();
            src.Blob = new byte[] { 9, 8, 7, 6 };
            src.Command = new Command.Say("other");
            e.DecodeInto(src.ToArray());
            Check.True(ReferenceEquals(cmd, e.Command), "same variant reused");
            Check.Equal("other", ((Command.Say)e.Command).Value, "variant overwritten");
            Check.True(ReferenceEquals(blob, e.Blob), "bytes of equal length reused");
            Check.Bytes(new byte[] { 9, 8, 7, 6 }, e.Blob, "bytes overwritten");
            Check.True(ReferenceEquals(map, e.MapU8), "map reused");
            src.Command = new Command.Ping(1);
            e.DecodeInto(src.ToArray());
            Check.True(e.Command is Command.Ping, "other variant replaces");
            Check.Bytes(src.ToArray(), e.ToArray(), "equal to source");
        }
    }
}
