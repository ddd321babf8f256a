// Malformed input: only PktDecodeException may escape, and nothing is
// allocated on the strength of an unchecked length.
using System;
using System.Collections.Generic;
using Pkt;
using Test.Everything;

namespace PktTests
{
    public static class HostileTests
    {
        private static void DecodeAll(byte[] input, string what)
        {
            Check.DecodesOrRejects(() => Test.Everything.Everything.Decode(input), what + " Everything");
            Check.DecodesOrRejects(() => Program.Decode(input), what + " Program");
            Check.DecodesOrRejects(() => Command.Decode(input), what + " Command");
            Check.DecodesOrRejects(() => Fixed.Decode(input), what + " Fixed");
            Check.DecodesOrRejects(() => Game.Net.ServerPacket.Decode(input), what + " ServerPacket");
            Check.DecodesOrRejects(() => new Everything().DecodeInto(input), what + " DecodeInto");
        }

        private static List<byte[]> Samples()
        {
            var prog = new Program();
            prog.Statements.Add(new Expr.Call(new CallExpr { Function = "f", Args = { new Expr.Literal(1), new Expr.Variable("v") } }));
            var ws = new Game.Net.WorldState();
            ws.Entities[1] = new Game.Net.EntityState { AnimGraph = new byte[] { 1, 2 } };
            return new List<byte[]>
            {
                Fixtures.MakeEverything().ToArray(),
                prog.ToArray(),
                new Game.Net.ServerPacket.WorldState(ws).ToArray(),
                new Command.Batch(new List<uint> { 1, 2, 3 }).ToArray(),
            };
        }

        public static void TruncatedEverywhere()
        {
            int rejected = 0;
            foreach (var sample in Samples())
            {
                for (int cut = 0; cut < sample.Length; cut++)
                {
                    var part = new byte[cut];
                    Array.Copy(sample, part, cut);
                    DecodeAll(part, "cut " + cut);
                    rejected++;
                }
            }
            Check.True(rejected > 100, "cuts tried");
        }

        public static void MutatedBytes()
        {
            var rng = new Random(1234);
            foreach (var sample in Samples())
            {
                for (int i = 0; i < sample.Length; i++)
                {
                    foreach (byte v in new byte[] { 0x00, 0x01, 0x02, 0x7f, 0x80, 0xff, (byte)rng.Next(256) })
                    {
                        var m = (byte[])sample.Clone();
                        m[i] = v;
                        DecodeAll(m, "byte " + i + " = " + v);
                    }
                }
            }
            for (int n = 0; n < 2000; n++)
            {
                var junk = new byte[rng.Next(64)];
                rng.NextBytes(junk);
                DecodeAll(junk, "random " + n);
            }
        }

        public static void HugePrefixes()
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            Check.Fails(PktDecodeReason.LengthExceedsInput, () => Seeds.Small.Small.Decode(Hex.Parse("ff ff ff ff 00")), "message length");
            Check.Fails(PktDecodeReason.LengthExceedsInput,
                () => Seeds.Small.Small.Decode(Hex.Parse("08 00 00 00 01 00 00 00 ff ff ff ff")), "string length");
            Check.Fails(PktDecodeReason.LengthExceedsInput,
                () => Seeds.World.WorldSnapshot.Decode(Hex.Parse("04 00 00 00 ff ff ff ff")), "list count");
            Check.Fails(PktDecodeReason.LengthExceedsInput,
                () => Seeds.World.WorldSnapshot.Decode(Hex.Parse("08 00 00 00 00 00 00 40 01 02 03 04")), "count x element size");
            Check.Fails(PktDecodeReason.LengthExceedsInput,
                () => Command.Decode(Hex.Parse("ff ff ff ff 01")), "frame length");
            long used = GC.GetAllocatedBytesForCurrentThread() - before;
            Console.WriteLine("alloc rejecting five 0xFFFFFFFF-style prefixes (exceptions included): " + used + " B");
            Check.True(used < 64 * 1024, "no allocation sized by the bogus prefixes");
        }

        public static void SpecificErrors()
        {
            var e = Check.Fails(PktDecodeReason.InvalidUtf8,
                () => Seeds.Small.Small.Decode(Hex.Parse("0b 00 00 00 01 00 00 00 03 00 00 00 61 ff 62")), "bad UTF-8");
            Check.Equal(13L, e.Offset, "offset of the bad byte");
            Check.Fails(PktDecodeReason.InvalidUtf8,
                () => Seeds.Small.Small.Decode(Hex.Parse("0b 00 00 00 01 00 00 00 03 00 00 00 ed a0 80")), "UTF-8 surrogate");
            Check.Fails(PktDecodeReason.InvalidUtf8,
                () => Seeds.Small.Small.Decode(Hex.Parse("0a 00 00 00 01 00 00 00 02 00 00 00 c0 80")), "overlong UTF-8");
            Check.Fails(PktDecodeReason.InvalidUtf8,
                () => Seeds.Small.Small.Decode(Hex.Parse("0a 00 00 00 01 00 00 00 02 00 00 00 e2 82")), "truncated UTF-8");
            var f = Fixtures.MakeFixed(1).ToArray();
            f[0] = 2;
            e = Check.Fails(PktDecodeReason.InvalidBool, () => Fixed.Decode(f), "bool 2");
            Check.Equal(0L, e.Offset, "bool offset");
            Check.Fails(PktDecodeReason.InvalidOptionFlag, () => Command.Decode(Hex.Parse("06 00 00 00 08 02 05 00 00 00")), "option flag 2");
            e = Check.Fails(PktDecodeReason.TrailingBytes, () => Seeds.Small.Small.Decode(Hex.Parse("04 00 00 00 01 00 00 00 00")), "trailing");
            Check.Equal(8L, e.Offset, "trailing offset");
            Check.Fails(PktDecodeReason.TrailingBytes, () => Seeds.Packets.Packet.Decode(new byte[5]), "struct trailing");
            Check.Fails(PktDecodeReason.UnexpectedEnd, () => Seeds.Packets.Packet.Decode(new byte[3]), "struct short");
            Check.Fails(PktDecodeReason.VariantLength, () => Command.Decode(Hex.Parse("03 00 00 00 01 07 08")), "variant too long");
            Check.Fails(PktDecodeReason.UnexpectedEnd, () => Command.Decode(Hex.Parse("01 00 00 00 01")), "variant too short");
            Check.Fails(PktDecodeReason.UnexpectedEnd, () => Seeds.Small.Small.Decode(Hex.Parse("02 00 00 00 01 00")), "body ends inside a field");
            // map<u16, u16> with key 1 twice: Everything cut after map_u16.
            var dup = new Game.Net.WorldState();
            dup.Entities[1] = new Game.Net.EntityState();
            dup.Entities[2] = new Game.Net.EntityState();
            var bytes = dup.ToArray();
            BitConverter.GetBytes(1u).CopyTo(bytes, 12 + 4 + dup.Entities.ValueAt(0).GetEncodedSize());
            e = Check.Fails(PktDecodeReason.DuplicateMapKey, () => Game.Net.WorldState.Decode(bytes), "duplicate key");
            Check.Equal((long)(12 + 4 + dup.Entities.ValueAt(0).GetEncodedSize()), e.Offset, "duplicate key offset");
            // Descending keys are accepted and sorted.
            BitConverter.GetBytes(3u).CopyTo(bytes, 12);
            var sorted = Game.Net.WorldState.Decode(bytes);
            Check.Equal(1u, sorted.Entities.KeyAt(0), "sorted after unordered input");
            // @max on decode.
            var big = new Seeds.Chat.Inventory();
            for (int i = 0; i < 257; i++) big.Slots.Add(new Seeds.Chat.ItemSlot());
            var bigBytes = new byte[big.GetEncodedSize()];
            string encodeError = null;
            try { big.ToArray(); } catch (PktEncodeException err) { encodeError = err.Message; }
            Check.True(encodeError != null && encodeError.Contains("seeds.chat.Inventory.slots"), "encode respects @max and names Type.field like Rust: " + encodeError);
            big.Slots.RemoveAt(0);
            var ok = big.ToArray();
            BitConverter.GetBytes(257u).CopyTo(ok, 12);
            var padded = new byte[ok.Length + 11];
            ok.CopyTo(padded, 0);
            BitConverter.GetBytes((uint)(padded.Length - 4)).CopyTo(padded, 0);
            Check.Fails(PktDecodeReason.FieldTooLong, () => Seeds.Chat.Inventory.Decode(padded), "decode respects @max");
            try { Seeds.Chat.Inventory.Decode(padded); }
            catch (PktDecodeException err) { Check.True(err.Message.Contains("seeds.chat.Inventory.slots"), "the decode error names Type.field: " + err.Message); }
            Check.True(bigBytes.Length > 0, "sized");
        }

        public static void DepthLimit()
        {
            LinkedNode head = null;
            for (int i = 0; i < 64; i++) head = new LinkedNode { Value = i, Next = head };
            var ok = head.ToArray();
            LinkedNode.Decode(ok);
            // A 65th level cannot be encoded; wrap the 64-level bytes by hand.
            var deep = new byte[4 + 4 + 1 + ok.Length];
            BitConverter.GetBytes((uint)(deep.Length - 4)).CopyTo(deep, 0);
            deep[8] = 1;
            ok.CopyTo(deep, 9);
            Check.Fails(PktDecodeReason.DepthExceeded, () => LinkedNode.Decode(deep), "65 nested messages");
            Check.Fails(PktDecodeReason.DepthExceeded, () => LinkedNode.Decode(ok, new PktLimits(10, 1 << 24, 1 << 24, 1 << 24)), "custom depth");
            // 100,000 nested frames claimed by a tiny hostile input: rejected at the limit, no stack overflow.
            var hostile = new byte[6 * 1000];
            for (int i = 0; i < 1000; i++)
            {
                BitConverter.GetBytes((uint)(hostile.Length - 6 * i - 4)).CopyTo(hostile, 6 * i);
                hostile[6 * i + 4] = 3; // Binary
                hostile[6 * i + 5] = 0;
            }
            Check.DecodesOrRejects(() => Expr.Decode(hostile), "nested frames");
        }

        public static void Limits()
        {
            var world = new Seeds.World.WorldSnapshot();
            for (int i = 0; i < 100; i++) world.Cells.Add(i);
            var bytes = world.ToArray();
            var tight = new PktLimits(64, 50, 1 << 24, 1 << 24);
            Check.Fails(PktDecodeReason.LimitExceeded, () => Seeds.World.WorldSnapshot.Decode(bytes, tight), "count over MaxLength");
            var fewElements = new PktLimits(64, 1 << 24, 1 << 24, 99);
            Check.Fails(PktDecodeReason.LimitExceeded, () => Seeds.World.WorldSnapshot.Decode(bytes, fewElements), "element budget");
            Seeds.World.WorldSnapshot.Decode(bytes, new PktLimits(64, 100, 1 << 24, 100));
            var s = new Seeds.Small.Small { Name = "hello" }.ToArray();
            Check.Fails(PktDecodeReason.LimitExceeded, () => Seeds.Small.Small.Decode(s, new PktLimits(64, 4, 1 << 24, 1 << 24)), "string over MaxLength");
        }
    }
}
