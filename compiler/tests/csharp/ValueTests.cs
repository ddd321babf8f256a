// Value semantics of the generated types: Equals, GetHashCode, == on structs,
// and ToString. Two values are equal exactly when they encode to the same
// bytes.
using System;
using System.Collections.Generic;
using Pkt;
using Test.Everything;

namespace PktTests
{
    public static class ValueTests
    {
        private static void Same<T>(T a, T b, string what) where T : IEquatable<T>
        {
            Check.True(a.Equals(b) && b.Equals(a), what + ": Equals(T)");
            Check.True(a.Equals((object)b), what + ": Equals(object)");
            Check.Equal(a.GetHashCode(), b.GetHashCode(), what + ": hash");
        }

        private static void Differ<T>(T a, T b, string what) where T : IEquatable<T>
        {
            Check.True(!a.Equals(b) && !b.Equals(a), what + ": Equals(T)");
            Check.True(!a.Equals((object)b), what + ": Equals(object)");
        }

        public static void DecodedEqualsOriginal()
        {
            var e = Fixtures.MakeEverything();
            var back = Everything.Decode(e.ToArray());
            Same(e, back, "Everything (NaN, -0.0, every collection)");
            Check.True(!ReferenceEquals(e.ListLeaf, back.ListLeaf), "compared by content");
            var set = new HashSet<Everything> { e };
            Check.True(set.Contains(back), "a HashSet finds the decoded value");

            var f = Fixtures.MakeFixed(9);
            var fb = Fixed.Decode(f.ToArray());
            Same(f, fb, "Fixed");
            Check.True(f == fb && !(f != fb), "== on structs");

            var small = new Seeds.Small.Small { Id = 1, Name = "hi" };
            Same(small, Seeds.Small.Small.Decode(small.ToArray()), "Small");

            var tree = Fixtures.MakeTree(1, 3);
            tree.Children[2].Children.Add(Fixtures.MakeTree(7, 2));
            Same(tree, TreeNode.Decode(tree.ToArray()), "TreeNode");

            LinkedNode head = null;
            for (int i = 0; i < 20; i++) head = new LinkedNode { Value = i, Next = head };
            Same(head, LinkedNode.Decode(head.ToArray()), "LinkedNode chain");

            var prog = new Program();
            prog.Statements.Add(new Expr.Binary(new BinaryExpr
            {
                Op = BinOp.Div,
                Lhs = new Expr.Call(new CallExpr { Function = "g", Args = { new Expr.Literal(long.MinValue) } }),
                Rhs = new Expr.Variable("y"),
            }));
            Same(prog, Program.Decode(prog.ToArray()), "Program (recursive union)");

            var commands = new Command[]
            {
                new Command.Ping(255), new Command.Nop(), new Command.Say("say"),
                new Command.Move(new Point { X = -1, Y = -2 }), new Command.Batch(new List<uint> { 1, 2, 3 }),
                new Command.Leaf(Fixtures.MakeLeaf("l", 9)), new Command.Idle(), new Command.Maybe(9),
                new Command.Maybe(null), new Command.Tint((Color)200), new Command.Unknown(99, new byte[] { 5, 6 }),
            };
            for (int i = 0; i < commands.Length; i++)
            {
                Same(commands[i], Command.Decode(commands[i].ToArray()), "Command " + commands[i].GetType().Name);
                for (int j = 0; j < commands.Length; j++)
                    if (i != j) Differ(commands[i], commands[j], "Command " + i + " vs " + j);
            }

            var fw = new Forwarded { Version = 2, Payload = new byte[] { 1 } };
            var withExtra = Hex.Parse("0b 00 00 00 02 00 00 00 01 00 00 00 01 aa bb");
            var kept = Forwarded.Decode(withExtra);
            Differ(fw, kept, "unknown fields are part of the value");
            fw.UnknownFields = new byte[] { 0xaa, 0xbb };
            Same(fw, kept, "unknown fields equal");

            var lr = new Game.Net.LoginResult { PlayerId = 5, SessionToken = new byte[32], Motd = "hi" };
            lr.FriendsOnline.Add("a");
            var sp = new Game.Net.ServerPacket.LoginResult(lr);
            Same<Game.Net.ServerPacket>(sp, Game.Net.ServerPacket.Decode(sp.ToArray()), "ServerPacket");
        }

        public static void FloatsCompareAsTheirBits()
        {
            var nan = new Leaf { Name = "n", Weight = double.NaN };
            Same(nan, new Leaf { Name = "n", Weight = double.NaN }, "NaN equals NaN");
            Same(nan, Leaf.Decode(nan.ToArray()), "decoded NaN");
            var otherNan = new Leaf { Name = "n", Weight = BitConverter.Int64BitsToDouble(0x7ff8000000000001L) };
            Check.True(double.IsNaN(otherNan.Weight), "a NaN with another payload");
            Differ(nan, otherNan, "NaNs with other bits");
            Differ(new Leaf { Weight = 0.0 }, new Leaf { Weight = -0.0 }, "0.0 and -0.0");
            Check.True(!new Leaf { Weight = 0.0 }.ToArray().AsSpan().SequenceEqual(new Leaf { Weight = -0.0 }.ToArray()), "as their bytes do");
            var p = new Fixed { Ratio = float.NaN };
            Check.True(p == new Fixed { Ratio = float.NaN }, "NaN field in a struct");
            Check.True(new Fixed { Ratio = 0.0f } != new Fixed { Ratio = -0.0f }, "-0.0f in a struct");
            var l = new Everything();
            l.ListF32.Add(float.NaN);
            var m = new Everything();
            m.ListF32.Add(float.NaN);
            Same(l, m, "NaN in a list");
            Same(l, Everything.Decode(l.ToArray()), "NaN in a decoded list");
        }

        /// <summary>A null where a value is required encodes as the default, and equals it.</summary>
        public static void NullsEqualTheirDefaults()
        {
            var e = Fixtures.MakeEverythingWithNulls();
            Same(new Everything(), e, "nulls and defaults");
            e.ArrayLeaf = new Leaf[] { null, new Leaf() };
            Same(new Everything(), e, "nulls and defaults");
            Same(Everything.Decode(e.ToArray()), e, "nulls and the decoded defaults");
            e.Command = new Command.Ping(1);
            Differ(new Everything(), e, "another first variant value");
            // A default struct leaves its arrays null: the same bytes as arrays of zeros.
            var zero = default(Fixed);
            Check.True(zero.Grid == null, "arrays of a default struct are null");
            Same(zero, Fixed.Decode(zero.ToArray()), "null arrays and decoded zeros");
            zero.Grid = new byte[4];
            Same(default(Fixed), zero, "null array and zeros");
            zero.Grid = new byte[] { 0, 0, 0, 1 };
            Differ(default(Fixed), zero, "null array and a non-zero one");
            // Declared defaults: a null string equals "", not the field's declared default.
            var d = new Defaults { Text = null };
            Differ(new Defaults(), d, "a null string is \"\", not \"anonymous\"");
            Same(new Defaults { Text = "" }, d, "a null string is \"\"");
            // Absent optionals are not their defaults.
            Differ(new Everything(), new Everything { OptU32 = 0 }, "absent and zero");
            Differ(new Everything(), new Everything { OptString = "" }, "absent and empty");
            Check.True(!new Leaf().Equals(null) && !new Leaf().Equals((object)null), "Equals(null) is false");
        }

        /// <summary>Changing any byte of an encoding and decoding it gives a value equal to
        /// the original exactly when its encoding is the same; equal values hash alike.</summary>
        public static void EqualExactlyWhenTheBytesAre()
        {
            var rng = new Random(4321);
            var samples = new List<byte[]>
            {
                Fixtures.MakeEverything().ToArray(),
                new Defaults().ToArray(),
                Fixtures.MakeTree(1, 4).ToArray(),
                new Command.Leaf(Fixtures.MakeLeaf("x", 1)).ToArray(),
            };
            int equal = 0, different = 0;
            foreach (var sample in samples)
            {
                var decoders = new Func<byte[], object>[] { b => Everything.Decode(b), b => Defaults.Decode(b), b => TreeNode.Decode(b), b => Command.Decode(b) };
                var decode = decoders[samples.IndexOf(sample)];
                var original = decode(sample);
                var originalBytes = Encode(original);
                var seen = new List<object>();
                for (int i = 0; i < sample.Length; i++)
                {
                    foreach (byte v in new byte[] { 0x00, 0x01, 0x80, 0xff, (byte)rng.Next(256) })
                    {
                        var m = (byte[])sample.Clone();
                        m[i] = v;
                        object got;
                        try { got = decode(m); }
                        catch (PktDecodeException) { continue; }
                        bool sameBytes = Encode(got).AsSpan().SequenceEqual(originalBytes);
                        Check.Equal(sameBytes, got.Equals(original), "byte " + i + " = " + v + ": Equals agrees with the bytes");
                        Check.Equal(sameBytes, original.Equals(got), "byte " + i + " = " + v + ": symmetric");
                        if (sameBytes)
                        {
                            equal++;
                            Check.Equal(original.GetHashCode(), got.GetHashCode(), "byte " + i + ": equal values hash alike");
                        }
                        else
                        {
                            different++;
                        }
                        if (seen.Count < 40) seen.Add(got);
                    }
                }
                // Pairs of mutated values, too.
                foreach (var a in seen)
                    foreach (var b in seen)
                        Check.Equal(Encode(a).AsSpan().SequenceEqual(Encode(b)), a.Equals(b), "pair");
            }
            Console.WriteLine("value equality: " + equal + " mutations decode to an equal value, " + different + " to a different one");
            Check.True(equal > 10 && different > 500, "both outcomes seen");
        }

        private static byte[] Encode(object v)
        {
            if (v is Everything) return ((Everything)v).ToArray();
            if (v is Defaults) return ((Defaults)v).ToArray();
            if (v is TreeNode) return ((TreeNode)v).ToArray();
            return ((Command)v).ToArray();
        }

        public static void EqualityAllocatesNothing()
        {
            var e = Fixtures.MakeEverything();
            var back = Everything.Decode(e.ToArray());
            var withNulls = Fixtures.MakeEverythingWithNulls();
            var defaults = new Everything();
            var f = Fixtures.MakeFixed(1);
            var g = Fixtures.MakeFixed(1);
            Command c = new Command.Batch(new List<uint> { 1, 2 });
            Command d = Command.Decode(c.ToArray());
            var tree = TreeNode.Decode(Fixtures.MakeTree(1, 8).ToArray());
            var tree2 = TreeNode.Decode(tree.ToArray());
            bool all = true;
            int hash = 0;
            long v;
            v = AllocTests.PerCall(() => all &= e.Equals(back), 100);
            Check.Equal(0L, v, "Equals(Everything)");
            v = AllocTests.PerCall(() => all &= withNulls.Equals(defaults), 100);
            Check.Equal(0L, v, "Equals with nulls read as defaults");
            v = AllocTests.PerCall(() => all &= f == g, 100);
            Check.Equal(0L, v, "== on structs");
            v = AllocTests.PerCall(() => all &= c.Equals(d), 100);
            Check.Equal(0L, v, "Equals(Command)");
            v = AllocTests.PerCall(() => all &= tree.Equals(tree2), 100);
            Check.Equal(0L, v, "Equals(TreeNode)");
            v = AllocTests.PerCall(() => hash ^= e.GetHashCode(), 100);
            Check.Equal(0L, v, "GetHashCode(Everything)");
            v = AllocTests.PerCall(() => hash ^= withNulls.GetHashCode() ^ f.GetHashCode() ^ c.GetHashCode(), 100);
            Check.Equal(0L, v, "GetHashCode with nulls, of a struct, of a union");
            Check.True(all, "all equal");
            Console.WriteLine("alloc Equals and GetHashCode (Everything, Fixed, Command, TreeNode): 0 B");
        }

        public static void TextIsReadable()
        {
            Check.Equal("Small { Id = 1, Name = \"hi\" }", new Seeds.Small.Small { Id = 1, Name = "hi" }.ToString(), "message");
            Check.Equal("Point { X = 1, Y = -2 }", new Point { X = 1, Y = -2 }.ToString(), "struct");
            Check.Equal("Empty { }", new Empty().ToString(), "empty struct");
            Check.Equal("Nothing { }", new Nothing().ToString(), "empty message");
            Check.Equal("Command.Move(Point { X = -1, Y = 2 })", new Command.Move(new Point { X = -1, Y = 2 }).ToString(), "union variant");
            Check.Equal("Command.Maybe(null)", new Command.Maybe(null).ToString(), "absent optional");
            Check.Equal("Command.Tint(Green)", new Command.Tint(Color.Green).ToString(), "enum value");
            Check.Equal("Command.Tint(200)", new Command.Tint((Color)200).ToString(), "unnamed enum value");
            Check.Equal("Command.Unknown(99, <05 06>)", new Command.Unknown(99, new byte[] { 5, 6 }).ToString(), "unknown variant");
            Check.Equal("Command.Batch([1, 2])", new Command.Batch(new List<uint> { 1, 2 }).ToString(), "list");
            Check.Equal("Leaf { Name = \"q\\\"\\n\\\\\", Weight = NaN }", new Leaf { Name = "q\"\n\\", Weight = double.NaN }.ToString(), "escapes, NaN");
            Check.Equal("Leaf { Name = null, Weight = -0 }", new Leaf { Name = null, Weight = -0.0 }.ToString(), "null, -0");
            Check.Equal("Leaf { Name = \"\", Weight = 0.1 }", new Leaf { Weight = 0.1 }.ToString(), "shortest round-trip float");
            var f = new Fixed { Ratio = 0.1f, Grid = new byte[] { 1, 2, 3, 4 } };
            Check.True(f.ToString().StartsWith("Fixed { Flag = false, Small = 0, Color = Red, Wide = 0, Big = Small, Point = Point { X = 0, Y = 0 }, Grid = [1, 2, 3, 4], Points = null,"), f.ToString());
            Check.True(f.ToString().EndsWith(", Ratio = 0.1, Precise = 0 }"), f.ToString());
            var e = Fixtures.MakeEverything();
            var text = e.ToString();
            Check.True(text.Contains("MapU8 = {1: \"one\", 3: \"three\"}"), text);
            Check.True(text.Contains("Blob = <00 01 02 ff>"), text);
            Check.True(text.Contains("OptCommand = Command.Leaf(Leaf { Name = \"inunion\", Weight = 5 })"), text);
            Check.True(text.Contains("ListOptU32 = [1, null, 3]"), text);
            Check.True(text.Contains("Text = \"héllo wörld 🎮\""), text);
            Check.Equal(text, Everything.Decode(e.ToArray()).ToString(), "decoded text");
        }

        public static void TextIsBounded()
        {
            var world = new Seeds.World.WorldSnapshot();
            for (int i = 0; i < 30000; i++) world.Cells.Add(i);
            Check.Equal("WorldSnapshot { Cells = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, … (29984 more)] }", world.ToString(), "long list");
            var s = new Seeds.Small.Small { Name = new string('a', 1000) };
            Check.Equal("Small { Id = 0, Name = \"" + new string('a', PktText.MaxStringLength) + "…\" (1000 chars) }", s.ToString(), "long string");
            var blob = new byte[100];
            var e = new Everything { Blob = blob };
            var zeros = new string[PktText.MaxBytes];
            for (int i = 0; i < zeros.Length; i++) zeros[i] = "00";
            Check.True(e.ToString().Contains("Blob = <" + string.Join(" ", zeros) + " … (100 bytes)>"), e.ToString());
            // Large and deep values stay within the bound, and quickly: the text
            // stops growing, and so does the walk.
            var tree = new TreeNode();
            var level = tree;
            for (int i = 0; i < 100; i++)
            {
                for (int k = 0; k < 100; k++) level.Children.Add(new TreeNode { Value = k });
                level = level.Children[0];
            }
            LinkedNode head = null;
            for (int i = 0; i < 100000; i++) head = new LinkedNode { Value = i, Next = head };
            foreach (var text in new[] { tree.ToString(), head.ToString() })
            {
                Check.True(text.Length <= PktText.MaxLength + 1, "bounded: " + text.Length);
                Check.True(text.EndsWith("…"), "cut text ends in …");
            }
        }

    }
}
