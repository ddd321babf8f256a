// Exact bytes required by docs/wire-format.md.
using System;
using System.Collections.Generic;
using Pkt;
using Test.Everything;

namespace PktTests
{
    public static class GoldenTests
    {
        public static void TransformPacket()
        {
            var p = new Seeds.Packets.TransformPacket
            {
                Size = 40, Id = 3,
                PosX = 1, PosY = 2, PosZ = 3,
                RotX = 4, RotY = 5, RotZ = 6,
                ScaleX = 7, ScaleY = 8, ScaleZ = 9,
            };
            var expected = Hex.Parse(
                "28 00 03 00 00 00 80 3f 00 00 00 40 00 00 40 40 00 00 80 40 00 00 a0 40 " +
                "00 00 c0 40 00 00 e0 40 00 00 00 41 00 00 10 41");
            Check.Equal(40, Seeds.Packets.TransformPacket.EncodedSize, "EncodedSize");
            Check.Equal(40, p.GetEncodedSize(), "GetEncodedSize");
            Check.Bytes(expected, p.ToArray(), "TransformPacket");
            var back = Seeds.Packets.TransformPacket.Decode(expected);
            Check.Equal(9f, back.ScaleZ, "ScaleZ");
            Check.Equal((ushort)3, back.Id, "Id");
            Check.Bytes(Hex.Parse("04 00 07 00"), new Seeds.Packets.Packet { Size = 4, Id = 7 }.ToArray(), "Packet");
            Check.Bytes(Hex.Parse("10 00 01 00 ff ff ff ff 02 00 00 00 00 00 00 80"),
                new Seeds.Packets.Int3Packet { Size = 16, Id = 1, X = -1, Y = 2, Z = int.MinValue }.ToArray(), "Int3Packet");
        }

        public static void Small()
        {
            var s = new Seeds.Small.Small { Id = 1, Name = "hi" };
            var expected = Hex.Parse("0a 00 00 00 01 00 00 00 02 00 00 00 68 69");
            Check.Bytes(expected, s.ToArray(), "Small ToArray");
            var buf = new byte[64];
            int n = s.Encode(buf);
            Check.Bytes(expected, new ReadOnlySpan<byte>(buf, 0, n), "Small Encode(Span)");
            var w = new ReusableBufferWriter(64);
            s.Encode(w);
            Check.Bytes(expected, w.WrittenSpan, "Small Encode(IBufferWriter)");
            Check.Equal(1, w.GetSpanCalls, "GetSpan calls");
            Check.Equal(1, w.AdvanceCalls, "Advance calls");
            var back = Seeds.Small.Small.Decode(expected);
            Check.Equal(1, back.Id, "Id");
            Check.Equal("hi", back.Name, "Name");
            var person = new Seeds.Person.Person { Age = 30, Name = "hi" };
            Check.Bytes(Hex.Parse("0a 00 00 00 1e 00 00 00 02 00 00 00 68 69"), person.ToArray(), "Person");
        }

        public static void UnionFrames()
        {
            Check.Bytes(Hex.Parse("02 00 00 00 01 07"), new Command.Ping(7).ToArray(), "Ping");
            Check.Bytes(Hex.Parse("01 00 00 00 02"), new Command.Nop().ToArray(), "Nop");
            Check.Bytes(Hex.Parse("07 00 00 00 03 02 00 00 00 68 69"), new Command.Say("hi").ToArray(), "Say");
            Check.Bytes(Hex.Parse("09 00 00 00 04 01 00 00 00 02 00 00 00"),
                new Command.Move(new Point { X = 1, Y = 2 }).ToArray(), "Move");
            Check.Bytes(Hex.Parse("05 00 00 00 07 00 00 00 00"), new Command.Idle().ToArray(), "Idle");
            // u16 tags.
            var pong = new Game.Net.ServerPacket.Pong(new Game.Net.Pong { ClientTime = 1, ServerTime = 2 });
            Check.Bytes(Hex.Parse("16 00 00 00 02 00 10 00 00 00 01 00 00 00 00 00 00 00 02 00 00 00 00 00 00 00"),
                pong.ToArray(), "ServerPacket.Pong");
            Check.Equal((ushort)2, pong.Tag, "Tag");
            var decoded = Command.Decode(Hex.Parse("02 00 00 00 01 07"));
            var ping = decoded as Command.Ping;
            Check.True(ping != null && ping.Value == 7, "decoded Ping(7)");
        }

        public static void Optionals()
        {
            Check.Bytes(Hex.Parse("06 00 00 00 08 01 05 00 00 00"), new Command.Maybe(5).ToArray(), "Maybe(5)");
            Check.Bytes(Hex.Parse("02 00 00 00 08 00"), new Command.Maybe(null).ToArray(), "Maybe(null)");
            var use = new Game.Net.UseItem { Slot = 2, TargetId = 0x01020304, Aim = new Game.Common.Vec3 { X = 1 } };
            Check.Bytes(Hex.Parse("12 00 00 00 02 01 04 03 02 01 00 00 80 3f 00 00 00 00 00 00 00 00"), use.ToArray(), "UseItem");
            use.TargetId = null;
            Check.Bytes(Hex.Parse("0e 00 00 00 02 00 00 00 80 3f 00 00 00 00 00 00 00 00"), use.ToArray(), "UseItem without target");
            var back = Game.Net.UseItem.Decode(use.ToArray());
            Check.True(!back.TargetId.HasValue, "absent optional decodes as null");
        }

        public static void MapSorted()
        {
            var ws = new Game.Net.WorldState { Tick = 1 };
            ws.Entities[30] = new Game.Net.EntityState { Health = 3 };
            ws.Entities[10] = new Game.Net.EntityState { Health = 1 };
            ws.Entities[20] = new Game.Net.EntityState { Health = 2 };
            Check.Equal(10u, ws.Entities.KeyAt(0), "sorted on insert");
            var bytes = ws.ToArray();
            var back = Game.Net.WorldState.Decode(bytes);
            Check.Equal(3, back.Entities.Count, "count");
            uint prev = 0;
            foreach (var kv in back.Entities)
            {
                Check.True(kv.Key > prev, "ascending keys");
                Check.Equal((ushort)(kv.Key / 10), kv.Value.Health, "value follows key");
                prev = kv.Key;
            }
            // Bytes for a simple map: map<bool, string> with true inserted first.
            var e = new Everything();
            e.MapBool[true] = "t";
            e.MapBool[false] = "f";
            Check.Equal(false, e.MapBool.KeyAt(0), "false before true");
            // Keys inserted out of order give the same bytes as keys inserted in order.
            var a = new Game.Net.WorldState();
            a.Entities[1] = new Game.Net.EntityState();
            a.Entities[2] = new Game.Net.EntityState();
            var b = new Game.Net.WorldState();
            b.Entities[2] = new Game.Net.EntityState();
            b.Entities[1] = new Game.Net.EntityState();
            Check.Bytes(a.ToArray(), b.ToArray(), "insertion order does not matter");
            // count 2 | key 1 | EntityState | key 2 | EntityState
            var body = a.ToArray();
            Check.Equal(2u, BitConverter.ToUInt32(body, 8), "entry count");
            Check.Equal(1u, BitConverter.ToUInt32(body, 12), "first key");
            // Unordered input is accepted and sorted; a repeated key is rejected.
            var m = new Everything();
            m.MapU16.Add(1, 10);
            var one = m.ToArray();
            Check.True(m.MapU16.ContainsKey(1) && !m.MapU16.ContainsKey(2), "ContainsKey");
            Check.True(m.MapU16.Remove(1) && m.MapU16.Count == 0, "Remove");
            ushort got;
            Check.True(!m.MapU16.TryGetValue(1, out got), "TryGetValue after remove");
            Check.True(one.Length > 0, "encoded");
        }

        public static void StringKeyOrder()
        {
            // U+FFFF sorts before U+1F600 in UTF-8, though its UTF-16 unit is larger.
            var m = Fixtures.StringU8Map("\U0001F600", "\uFFFF", "b", "a", "", "\u00e9");
            var keys = new List<string>();
            foreach (var kv in m) keys.Add(kv.Key);
            Check.Equal("|a|b|\u00e9|\uFFFF|\U0001F600", string.Join("|", keys), "UTF-8 order");
            Check.True(string.CompareOrdinal("\uFFFF", "\U0001F600") > 0, "ordinal order differs");
        }

        public static void FixedStructLayout()
        {
            var f = Fixtures.MakeFixed(7);
            var bytes = f.ToArray();
            Check.Equal(58, bytes.Length, "Fixed is 58 bytes");
            Check.Equal(1, (int)bytes[0], "flag");
            Check.Equal(7, (int)bytes[1], "small");
            Check.Equal(2, (int)bytes[2], "color");
            Check.Bytes(Hex.Parse("ff ff"), new ReadOnlySpan<byte>(bytes, 3, 2), "wide");
            Check.Bytes(Hex.Parse("00 28 6b ee"), new ReadOnlySpan<byte>(bytes, 5, 4), "big = 4000000000");
            Check.Bytes(Hex.Parse("01 02 03 07"), new ReadOnlySpan<byte>(bytes, 17, 4), "grid");
            Check.Bytes(Hex.Parse("ff ff 02 00 03 00 00 80"), new ReadOnlySpan<byte>(bytes, 37, 8), "nested");
            Check.Equal(0x9c, (int)bytes[45], "signed byte -100");
            var back = Fixed.Decode(bytes);
            Check.Bytes(bytes, back.ToArray(), "round trip");
        }

        public static void NullFieldsEncodeAsDefaults()
        {
            var a = new Leaf();
            var b = new Leaf { Name = null };
            Check.Bytes(a.ToArray(), b.ToArray(), "null string = empty");
            var reference = new Everything().ToArray();
            var e = Fixtures.MakeEverythingWithNulls();
            Check.Bytes(reference, e.ToArray(), "nulls encode as defaults");
            Check.Equal(reference.Length, e.GetEncodedSize(), "size with nulls");
        }

        public static void EncodeErrors()
        {
            var e = new Everything();
            e.ArrayU8 = new byte[1];
            string message = null;
            try { e.ToArray(); } catch (PktEncodeException err) { message = err.Message; }
            Check.Equal("field `test.everything.Everything.array_u8` is an array of 1 element, but its type has 4", message, "wrong array length names the field");
            bool threw = false;
            e = new Everything { ShortText = new string('x', 17) };
            threw = false;
            try { e.ToArray(); } catch (PktEncodeException) { threw = true; }
            Check.True(threw, "@max(16) exceeded");
            threw = false;
            try { new Seeds.Small.Small { Name = "hello" }.Encode(new byte[10]); } catch (PktEncodeException) { threw = true; }
            Check.True(threw, "destination too small");
            threw = false;
            try { new Seeds.Packets.Packet().Encode(new byte[3]); } catch (PktEncodeException) { threw = true; }
            Check.True(threw, "struct destination too small");
        }
    }
}
