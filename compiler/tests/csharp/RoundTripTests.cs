// Encode → decode → encode gives the same bytes, for every type.
using System;
using System.Collections.Generic;
using Pkt;
using Test.Everything;

namespace PktTests
{
    public static class RoundTripTests
    {
        public static void Everything()
        {
            var e = Fixtures.MakeEverything();
            var bytes = e.ToArray();
            Check.Equal(bytes.Length, e.GetEncodedSize(), "GetEncodedSize");
            var back = Test.Everything.Everything.Decode(bytes);
            Check.Bytes(bytes, back.ToArray(), "Everything re-encodes identically");
            Check.Equal("héllo wörld 🎮", back.Text, "Text");
            Check.True(float.IsNaN(back.VF32), "NaN kept");
            Check.True(BitConverter.DoubleToInt64Bits(back.VF64) == BitConverter.DoubleToInt64Bits(-0.0), "-0.0 kept");
            Check.Equal(ulong.MaxValue - 1, back.VU64, "VU64");
            Check.Equal((Color)42, back.ListColor[2], "unknown enum value in list");
            Check.Equal("three", back.MapU8[3], "map lookup");
            Check.Equal(1, back.MapU8.KeyAt(0), "map sorted");
            Check.Equal(2.0, back.MapNested["n"][2], "nested map");
            Check.True(!back.MapOpt["none"].HasValue && back.MapOpt["some"] == 5, "map of optionals");
            Check.True(back.ListOptLeaf[0] == null && back.ListOptLeaf[1].Name == "opt", "list of optional messages");
            Check.True(back.ListOptU32[1] == null && back.ListOptU32[2] == 3, "list of optional scalars");
            Check.Equal(-7, back.FixedBlock.Points[1].X, "struct array");
            Check.Equal(short.MinValue, back.FixedBlock.Nested[1][1], "nested struct array");
            Check.True(back.OptCommand is Command.Leaf && ((Command.Leaf)back.OptCommand).Value.Name == "inunion", "optional union");
            Check.True(back.ArrayCommand[1] is Command.Move, "array of unions");
            Check.Equal((uint?)7, back.ArrayOpt[1], "array of optionals");
            Check.Equal(16, back.ArrayF32.Length, "array length");
            Check.Equal(false, back.OptBool.Value, "optional false");
#pragma warning disable 612, 618
            Check.Equal(77u, back.OldId, "deprecated fields are still sent");
#pragma warning restore 612, 618
            // Every other type of the coverage schema.
            Check.Bytes(new Empty().ToArray(), Empty.Decode(new byte[0]).ToArray(), "Empty");
            Check.Equal(0, new Empty().ToArray().Length, "Empty has no bytes");
            Check.Bytes(Hex.Parse("00 00 00 00"), new Nothing().ToArray(), "Nothing");
            var leaf = Fixtures.MakeLeaf("leaf", 1.25);
            Check.Bytes(leaf.ToArray(), Leaf.Decode(leaf.ToArray()).ToArray(), "Leaf");
            var p = new Point { X = 1, Y = 2 };
            Check.Bytes(p.ToArray(), Point.Decode(p.ToArray()).ToArray(), "Point");
        }

        public static void EverythingDefaults()
        {
            var e = new Everything();
            var bytes = e.ToArray();
            Check.Equal(bytes.Length, e.GetEncodedSize(), "size");
            Check.Bytes(bytes, Test.Everything.Everything.Decode(bytes).ToArray(), "defaults round trip");
            Check.True(e.Command is Command.Ping, "union default is its first variant");
            Check.Equal(2, e.ArrayLeaf.Length, "array default length");
            Check.True(e.ArrayLeaf[1] != null && e.ArrayLeaf[1].Name == "", "array elements of class type constructed");
            Check.Equal(2, e.ArrayString.Length, "string array");
            Check.Equal("", e.ArrayString[0], "string array element");
            Check.True(e.OptLeaf == null && !e.OptU32.HasValue, "optionals absent");
            Check.True(new Program().Statements.Count == 0, "empty list");
            Check.Equal(BinOp.Add, new BinaryExpr().Op, "declared enum default");
            var d = new Defaults();
            Check.Equal(ulong.MaxValue, d.VU64, "u64 default");
            Check.Equal(long.MinValue, d.VI64, "i64 default");
            Check.Equal(0.1, d.VF64, "f64 default");
            Check.Equal("anonymous", d.Text, "string default");
            Check.Equal(Big.Huge, d.Big, "enum default");
        }

        public static void EveryCommandVariant()
        {
            var all = new Command[]
            {
                new Command.Ping(255), new Command.Nop(), new Command.Say("say"),
                new Command.Move(new Point { X = -1, Y = -2 }), new Command.Batch(new List<uint> { 1, 2, 3 }),
                new Command.Leaf(Fixtures.MakeLeaf("l", 9)), new Command.Idle(), new Command.Maybe(9),
                new Command.Maybe(null), new Command.Tint((Color)200),
            };
            foreach (var c in all)
            {
                var bytes = c.ToArray();
                Check.Equal(bytes.Length, c.GetEncodedSize(), "size of " + c.GetType().Name);
                var back = Command.Decode(bytes);
                Check.Equal(c.GetType(), back.GetType(), "variant");
                Check.Equal(c.Tag, back.Tag, "tag");
                Check.Bytes(bytes, back.ToArray(), c.GetType().Name);
            }
            var exprs = new Expr[]
            {
                new Expr.Literal(-5), new Expr.Variable("x"),
                new Expr.Binary(new BinaryExpr { Op = BinOp.Mul, Lhs = new Expr.Literal(2), Rhs = null }),
                new Expr.Call(new CallExpr { Function = "f", Args = { new Expr.Variable("a"), new Expr.Literal(1) } }),
            };
            foreach (var x in exprs)
                Check.Bytes(x.ToArray(), Expr.Decode(x.ToArray()).ToArray(), x.GetType().Name);
        }

        public static void UnknownUnionTag()
        {
            // Tag 10 is reserved, so no reader knows it.
            var bytes = Hex.Parse("04 00 00 00 0a 01 02 03");
            var u = Command.Decode(bytes) as Command.Unknown;
            Check.True(u != null, "decodes to Unknown");
            Check.Equal((byte)10, u.Tag, "Tag");
            Check.Equal((byte)10, u.UnknownTag, "UnknownTag");
            Check.Bytes(Hex.Parse("01 02 03"), u.Body, "Body");
            Check.Bytes(bytes, u.ToArray(), "re-encodes identically");
            Check.Equal(bytes.Length, u.GetEncodedSize(), "size");
            // An unknown u16 tag inside a message field.
            var frame = Hex.Parse("03 00 00 00 04 01 ff");
            var sp = Game.Net.ServerPacket.Decode(frame) as Game.Net.ServerPacket.Unknown;
            Check.True(sp != null && sp.Tag == 0x0104, "u16 unknown tag");
            Check.Bytes(frame, sp.ToArray(), "u16 unknown re-encodes");
            var e = new Everything { Command = new Command.Unknown(99, new byte[] { 5 }) };
            var eb = e.ToArray();
            var back = Test.Everything.Everything.Decode(eb);
            Check.True(back.Command is Command.Unknown && back.Command.Tag == 99, "unknown variant in a field");
            Check.Bytes(eb, back.ToArray(), "message with unknown variant");
        }

        public static void UnknownEnumValue()
        {
            var f = Fixtures.MakeFixed(1);
            f.Color = (Color)77;
            f.Wide = (Wide)12345;
            f.Big = (Big)7;
            var back = Fixed.Decode(f.ToArray());
            Check.Equal((Color)77, back.Color, "u8 enum");
            Check.Equal((Wide)12345, back.Wide, "u16 enum");
            Check.Equal((Big)7, back.Big, "u32 enum");
            Check.Bytes(f.ToArray(), back.ToArray(), "unknown enum values survive");
        }

        public static void RecursiveTypes()
        {
            var tree = Fixtures.MakeTree(1, 3);
            tree.Children[1].Children.Add(Fixtures.MakeTree(5, 2));
            var tb = tree.ToArray();
            var tback = TreeNode.Decode(tb);
            Check.Equal(2, tback.Children[1].Children[0].Children.Count, "deep child");
            Check.Bytes(tb, tback.ToArray(), "TreeNode");
            LinkedNode head = null;
            for (int i = 0; i < 10; i++) head = new LinkedNode { Value = i, Next = head };
            var lb = head.ToArray();
            var lback = LinkedNode.Decode(lb);
            int n = 0;
            for (var x = lback; x != null; x = x.Next) n++;
            Check.Equal(10, n, "chain length");
            Check.Bytes(lb, lback.ToArray(), "LinkedNode");
            var prog = new Program();
            prog.Statements.Add(new Expr.Binary(new BinaryExpr
            {
                Op = BinOp.Div,
                Lhs = new Expr.Call(new CallExpr { Function = "g", Args = { new Expr.Literal(long.MinValue) } }),
                Rhs = new Expr.Variable("y"),
            }));
            var pb = prog.ToArray();
            Check.Bytes(pb, Program.Decode(pb).ToArray(), "Program");
        }

        public static void GamePackets()
        {
            var login = new Game.Net.Login { ProtocolVersion = 3, Username = "me", AuthToken = new byte[32], ClientBuild = "1.0" };
            login.AuthToken[31] = 0xAB;
            var cp = new Game.Net.ClientPacket.Login(login);
            var back = Game.Net.ClientPacket.Decode(cp.ToArray()) as Game.Net.ClientPacket.Login;
            Check.Equal("anonymous", back.Value.DisplayName, "declared default sent");
            Check.Equal(Game.Net.Platform.Desktop, back.Value.Platform, "declared enum default");
            Check.Equal(0xAB, (int)back.Value.AuthToken[31], "token");
            var lr = new Game.Net.LoginResult { PlayerId = 5, SessionToken = new byte[32], RefusalText = null, Motd = "hi" };
            lr.FriendsOnline.Add("a");
            lr.Spawn = new Game.Net.PlayerSpawn { Team = Game.Common.Team.Blue };
            var sp = new Game.Net.ServerPacket.LoginResult(lr);
            var spb = sp.ToArray();
            Check.Bytes(spb, Game.Net.ServerPacket.Decode(spb).ToArray(), "LoginResult");
            var inv = new Seeds.Chat.Inventory { OwnerId = 1 };
            inv.Slots.Add(new Seeds.Chat.ItemSlot { Slot = 1, ItemId = 2, Kind = Seeds.Chat.ItemKind.Armor, Count = 3, Durability = 4 });
            Check.Equal(4 + 8 + 4 + 11, inv.ToArray().Length, "Inventory size");
            var mesh = new Bench.Mesh.Mesh();
            mesh.Triangles.Add(new Bench.Mesh.Triangle { Normal = new Bench.Mesh.Vec3 { Z = 1 } });
            Check.Equal(4 + 4 + 48, mesh.ToArray().Length, "Mesh size");
            var world = new Seeds.World.WorldSnapshot();
            for (int i = 0; i < 30000; i++) world.Cells.Add(i);
            var wb = world.ToArray();
            Check.Equal(4 + 4 + 120000, wb.Length, "WorldSnapshot size");
            Check.Equal(29999, Seeds.World.WorldSnapshot.Decode(wb).Cells[29999], "last cell");
            var chat = new Seeds.Chat.ChatPacket { SenderId = -1, Nickname = "n", Text = "t" };
            Check.Bytes(chat.ToArray(), Seeds.Chat.ChatPacket.Decode(chat.ToArray()).ToArray(), "ChatPacket");
            Check.Equal(32, (int)Game.Net.GameConstants.TokenLen, "constants");
            Check.Equal(4, (int)Test.Everything.EverythingConstants.Small, "constants");
        }

        public static void MissingFieldsTakeDefaults()
        {
            // Empty body: every field takes its declared default.
            var d = Defaults.Decode(Hex.Parse("00 00 00 00"));
            Check.Equal(true, d.VBool, "bool default");
            Check.Equal((byte)255, d.VU8, "u8 default");
            Check.Equal(0xDEADBEEFu, d.VU32, "u32 default");
            Check.Equal(-128, (int)d.VI8, "i8 default");
            Check.Equal(2147483647, d.VI32, "i32 default");
            Check.Equal(1.5f, d.VF32, "f32 default");
            Check.Equal("anonymous", d.Text, "string default");
            Check.Equal(Color.Blue, d.Color, "enum default");
            Check.Equal(Wide.High, d.Wide, "wide default");
            Check.Bytes(new Defaults().ToArray(), d.ToArray(), "decoded defaults equal constructed defaults");
            // Body cut after the first field.
            d = Defaults.Decode(Hex.Parse("01 00 00 00 00"));
            Check.Equal(false, d.VBool, "present field");
            Check.Equal((ushort)0xFFFF, d.VU16, "absent field");
            // Small cut after id: name is empty.
            var s = Seeds.Small.Small.Decode(Hex.Parse("04 00 00 00 01 00 00 00"));
            Check.Equal(1, s.Id, "id");
            Check.Equal("", s.Name, "name default");
            // Every field boundary of Everything: the prefix decodes, the rest is default.
            var full = Fixtures.MakeEverything().ToArray();
            var defaults = new Everything().ToArray();
            int boundaries = 0;
            for (int cut = 4; cut <= full.Length; cut++)
            {
                var part = (byte[])full.Clone();
                Array.Resize(ref part, cut);
                BitConverter.GetBytes((uint)(cut - 4)).CopyTo(part, 0);
                Everything got = null;
                if (Check.DecodesOrRejects(() => got = Test.Everything.Everything.Decode(part), "cut at " + cut))
                {
                    boundaries++;
                    var again = got.ToArray();
                    Check.True(again.Length >= cut, "re-encoding keeps the decoded prefix");
                    Check.Bytes(new ReadOnlySpan<byte>(part, 4, cut - 4).ToArray(), new ReadOnlySpan<byte>(again, 4, cut - 4), "prefix at " + cut);
                }
            }
            Check.True(boundaries > 80, "most field boundaries decode (" + boundaries + ")");
            Check.True(defaults.Length > 4, "defaults encoded");
        }

        public static void UnknownFields()
        {
            // Small with an extra u16 field from a newer writer.
            var newer = Hex.Parse("0c 00 00 00 01 00 00 00 02 00 00 00 68 69 34 12");
            var s = Seeds.Small.Small.Decode(newer);
            Check.Equal("hi", s.Name, "known fields read");
            Check.Bytes(Hex.Parse("0a 00 00 00 01 00 00 00 02 00 00 00 68 69"), s.ToArray(), "unknown bytes dropped");
            // Forwarded keeps them and writes them back.
            var fw = new Forwarded { Version = 2, Payload = new byte[] { 1, 2 } };
            var known = fw.ToArray();
            var extra = Hex.Parse("aa bb cc");
            var withExtra = new byte[known.Length + 3];
            known.CopyTo(withExtra, 0);
            extra.CopyTo(withExtra, known.Length);
            BitConverter.GetBytes((uint)(withExtra.Length - 4)).CopyTo(withExtra, 0);
            var back = Forwarded.Decode(withExtra);
            Check.Bytes(extra, back.UnknownFields, "UnknownFields");
            Check.Bytes(withExtra, back.ToArray(), "re-encoded byte-exactly");
            Check.Equal(withExtra.Length, back.GetEncodedSize(), "size includes unknown fields");
            // DecodeInto older data clears them.
            back.DecodeInto(known);
            Check.Equal(0, back.UnknownFields.Length, "cleared by data without unknown fields");
        }

        public static void TryDecodeStreams()
        {
            var a = new Seeds.Small.Small { Id = 1, Name = "a" }.ToArray();
            var b = new Seeds.Small.Small { Id = 2, Name = "bb" }.ToArray();
            var stream = new byte[a.Length + b.Length];
            a.CopyTo(stream, 0);
            b.CopyTo(stream, a.Length);
            Seeds.Small.Small v;
            int used;
            Check.True(Seeds.Small.Small.TryDecode(stream, out v, out used), "first");
            Check.Equal(a.Length, used, "consumed");
            Check.True(Seeds.Small.Small.TryDecode(new ReadOnlySpan<byte>(stream, used, stream.Length - used), out v, out used), "second");
            Check.Equal(2, v.Id, "second id");
            for (int i = 0; i < a.Length; i++)
                Check.True(!Seeds.Small.Small.TryDecode(new ReadOnlySpan<byte>(a, 0, i), out v, out used), "incomplete " + i);
            var pk = new Seeds.Packets.Packet { Size = 4, Id = 1 }.ToArray();
            Seeds.Packets.Packet p;
            Check.True(!Seeds.Packets.Packet.TryDecode(new ReadOnlySpan<byte>(pk, 0, 3), out p, out used), "struct incomplete");
            Check.True(Seeds.Packets.Packet.TryDecode(pk, out p, out used) && used == 4, "struct complete");
            Command c;
            Check.True(!Command.TryDecode(Hex.Parse("02 00 00 00 01"), out c, out used), "union incomplete");
            Check.True(Command.TryDecode(Hex.Parse("02 00 00 00 01 07 99"), out c, out used) && used == 6, "union complete");
            Check.Fails(PktDecodeReason.LimitExceeded, () => Command.TryDecode(Hex.Parse("ff ff ff ff"), out c, out used), "oversized prefix");
        }
    }
}
