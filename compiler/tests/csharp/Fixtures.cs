// Values with every field set to something other than its default.
using System;
using System.Collections.Generic;
using Test.Everything;

namespace PktTests
{
    public static class Fixtures
    {
        public static Fixed MakeFixed(byte seed)
        {
            return new Fixed
            {
                Flag = true,
                Small = seed,
                Color = Color.Blue,
                Wide = Wide.High,
                Big = Big.Huge,
                Point = new Point { X = -1, Y = 1 << 20 },
                Grid = new byte[] { 1, 2, 3, seed },
                Points = new[] { new Point { X = 5, Y = 6 }, new Point { X = -7, Y = 8 } },
                Nested = new[] { new short[] { -1, 2 }, new short[] { 3, short.MinValue } },
                SignedByte = -100,
                Ratio = 0.25f,
                Precise = -1e300,
            };
        }

        public static Leaf MakeLeaf(string name, double weight)
        {
            return new Leaf { Name = name, Weight = weight };
        }

        public static global::Pkt.PktMap<string, byte> StringU8Map(params string[] keys)
        {
            var m = new global::Pkt.PktMap<string, byte>(global::Pkt.PktKeyOrders.String);
            for (int i = 0; i < keys.Length; i++) m.Add(keys[i], (byte)i);
            return m;
        }

#pragma warning disable 612, 618
        public static Everything MakeEverything()
        {
            var e = new Everything
            {
                VBool = true,
                VU8 = 200,
                VU16 = 60000,
                VU32 = 4000000000,
                VU64 = ulong.MaxValue - 1,
                VI8 = -5,
                VI16 = -30000,
                VI32 = int.MinValue,
                VI64 = long.MinValue + 1,
                VF32 = float.NaN,
                VF64 = -0.0,
                Color = Color.Green,
                Wide = Wide.Mid,
                Big = Big.Huge,
                Text = "héllo wörld 🎮",
                ShortText = "short",
                Blob = new byte[] { 0, 1, 2, 255 },
                ShortBlob = new byte[] { 9, 9 },
                Point = new Point { X = 3, Y = -4 },
                FixedBlock = MakeFixed(7),
                Empty = new Empty(),
                Leaf = MakeLeaf("leaf", 2.5),
                Nothing = new Nothing(),
                Command = new Command.Say("cmd"),
            };
            e.ListU8.AddRange(new byte[] { 1, 2, 3 });
            e.ListI64.AddRange(new long[] { long.MaxValue, -1 });
            e.ListF32.AddRange(new[] { 1.5f, float.PositiveInfinity });
            e.ListBool.AddRange(new[] { true, false, true });
            e.ListColor.AddRange(new[] { Color.Red, Color.Blue, (Color)42 });
            e.ListPoint.Add(new Point { X = 1, Y = 2 });
            e.ListFixed.Add(MakeFixed(1));
            e.ListFixed.Add(MakeFixed(2));
            e.ListString.AddRange(new[] { "", "a", "ß" });
            e.ListBytes.Add(new byte[] { 1 });
            e.ListBytes.Add(new byte[0]);
            e.ListLeaf.Add(MakeLeaf("x", 1));
            e.ListLeaf.Add(MakeLeaf("y", -1));
            e.ListCommand.Add(new Command.Ping(3));
            e.ListCommand.Add(new Command.Maybe(null));
            e.ListCommand.Add(new Command.Batch(new List<uint> { 1, 2 }));
            e.ListList.Add(new List<ushort> { 1, 2 });
            e.ListList.Add(new List<ushort>());
            e.ListMap.Add(StringU8Map("b", "a"));
            e.ListArray.Add(new byte[] { 1, 2, 3 });
            e.ListOptU32.AddRange(new uint?[] { 1, null, 3 });
            e.ListOptLeaf.Add(null);
            e.ListOptLeaf.Add(MakeLeaf("opt", 0.5));
            e.ListOptPoint.Add(new Point { X = 9, Y = 9 });
            e.ListOptPoint.Add(null);
            e.BoundedList.AddRange(new[] { 1, 2, 3 });
            e.MapU8.Add(3, "three");
            e.MapU8.Add(1, "one");
            e.MapI8.Add(-1, 1);
            e.MapI8.Add(-128, 2);
            e.MapU16.Add(65535, 1);
            e.MapI32.Add(-5, MakeLeaf("m", 3));
            e.MapU64.Add(ulong.MaxValue, new Point { X = 1, Y = 1 });
            e.MapI64.Add(0, new byte[] { 7 });
            e.MapBool.Add(true, "t");
            e.MapBool.Add(false, "f");
            e.MapString.Add("zeta", 1);
            e.MapString.Add("alpha", 2);
            e.MapString.Add("\uFFFF", 3);
            e.MapString.Add("\U0001F600", 4);
            e.MapColor.Add(Color.Blue, new List<string> { "b" });
            e.MapColor.Add(Color.Red, new List<string>());
            e.MapWide.Add(Wide.High, 1);
            e.MapWide.Add(Wide.Low, 2);
            var inner = new global::Pkt.PktMap<uint, double>(global::Pkt.PktKeyOrders.U32);
            inner.Add(2, 2.0);
            inner.Add(1, 1.0);
            e.MapNested.Add("n", inner);
            e.MapCommand.Add(5, new Command.Tint(Color.Green));
            e.MapOpt.Add("none", null);
            e.MapOpt.Add("some", 5);
            e.BoundedMap.Add(1, 2);
            e.ArrayU8 = new byte[] { 1, 2, 3, 4 };
            for (int i = 0; i < 16; i++) e.ArrayF32[i] = i * 0.5f;
            e.ArrayPoint[2] = new Point { X = 2, Y = 2 };
            e.ArrayColor = new[] { Color.Blue, Color.Green };
            e.ArrayNested = new[] { new byte[] { 1, 2 }, new byte[] { 3, 4 }, new byte[] { 5, 6 } };
            e.ArrayConst = new byte[] { 4, 3, 2, 1 };
            e.ArrayString = new[] { "one", "two" };
            e.ArrayBytes = new[] { new byte[] { 1 }, new byte[] { 2, 3 } };
            e.ArrayLeaf = new[] { MakeLeaf("l0", 0), MakeLeaf("l1", 1) };
            e.ArrayList = new[] { new List<byte> { 1 }, new List<byte> { 2, 2 } };
            e.ArrayOpt = new uint?[] { null, 7, null };
            e.ArrayCommand = new Command[] { new Command.Nop(), new Command.Move(new Point { X = 1, Y = -1 }) };
            e.OptBool = false;
            e.OptU32 = 0;
            e.OptI64 = -9;
            e.OptF64 = 3.25;
            e.OptColor = Color.Red;
            e.OptString = "";
            e.OptBytes = new byte[] { 1, 2 };
            e.OptPoint = new Point { X = 0, Y = 0 };
            e.OptFixed = MakeFixed(3);
            e.OptEmpty = new Empty();
            e.OptLeaf = MakeLeaf("optleaf", 4);
            e.OptNothing = new Nothing();
            e.OptCommand = new Command.Leaf(MakeLeaf("inunion", 5));
            e.OptList = new List<byte> { 5, 6 };
            e.OptMap = new global::Pkt.PktMap<string, string>(global::Pkt.PktKeyOrders.String);
            e.OptMap.Add("k", "v");
            e.OptArray = new byte[] { 1, 1, 1, 1 };
            e.OldId = 77;
            e.OldName = "old";
            return e;
        }
#pragma warning restore 612, 618

        /// <summary>A default Everything with null in its non-optional reference fields, which encode as their defaults.</summary>
        public static Everything MakeEverythingWithNulls()
        {
            var e = new Everything();
            e.Text = null;
            e.Blob = null;
            e.ListU8 = null;
            e.MapU8 = null;
            e.Leaf = null;
            e.Command = null;
            e.ArrayString = null;
            e.ArrayLeaf = null;
            e.ArrayCommand = null;
            return e;
        }

        public static TreeNode MakeTree(int value, int children)
        {
            var t = new TreeNode { Value = value };
            for (int i = 0; i < children; i++) t.Children.Add(new TreeNode { Value = value * 10 + i });
            return t;
        }
    }
}
