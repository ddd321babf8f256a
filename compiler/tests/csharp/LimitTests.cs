// @max on the elements, keys and values of collections (schemas/limits.pkt):
// a value at every limit round-trips, and a prefix one past a part's limit
// is rejected at its offset, naming the part, on every read path: a fresh
// decode, and DecodeInto a value whose lists already hold as many elements
// (the elements are decoded into) or none (they are added).
using System;
using System.Collections.Generic;
using System.Text;
using Pkt;
using Test.Limits;

namespace PktTests
{
    public static class LimitTests
    {
        static string Run(char c, int n)
        {
            return new string(c, n);
        }

        static byte[] Fill(byte b, int n)
        {
            var a = new byte[n];
            for (int i = 0; i < n; i++) a[i] = b;
            return a;
        }

        /// <summary>A chat with every part at its limit, each part's content telling it apart.</summary>
        static Chat Full()
        {
            var c = new Chat();
            for (int i = 0; i < 8; i++) c.Mentions.Add(Run((char)('a' + i), 24));
            c.Tags[Run('k', 32)] = Fill(0xEE, 256);
            c.Notes.Add(null);
            c.Notes.Add(Run('n', 4));
            for (int r = 0; r < 3; r++)
            {
                var row = new List<string>();
                for (int k = 0; k < 2; k++) row.Add(Run((char)('p' + 2 * r + k), 5));
                c.Grid.Add(row);
            }
            c.Slots = new[] { Fill(0xA1, 2), Fill(0xA2, 2), Fill(0xA3, 2) };
            c.Groups = new PktMap<byte, List<uint>>(PktKeyOrders.U8);
            c.Groups[1] = new List<uint> { 7, 8 };
            return c;
        }

        static byte[] Le(uint n)
        {
            return new[] { (byte)n, (byte)(n >> 8), (byte)(n >> 16), (byte)(n >> 24) };
        }

        static byte[] Cat(params byte[][] parts)
        {
            var all = new List<byte>();
            foreach (var p in parts) all.AddRange(p);
            return all.ToArray();
        }

        static int Find(byte[] hay, byte[] needle)
        {
            for (int i = 0; i + needle.Length <= hay.Length; i++)
            {
                int j = 0;
                while (j < needle.Length && hay[i + j] == needle[j]) j++;
                if (j == needle.Length) return i;
            }
            throw new AssertionException("pattern " + Hex.Of(needle) + " not in " + Hex.Of(hay));
        }

        struct Case
        {
            public string Part;
            public byte[] Pattern; // the prefix at its limit and what follows it
            public int Skip;       // bytes of the pattern before the prefix
            public uint Limit;
        }

        static Case Part(string part, uint limit, byte[] pattern, int skip = 0)
        {
            return new Case { Part = part, Limit = limit, Pattern = pattern, Skip = skip };
        }

        static byte[] Text(string s)
        {
            return Encoding.UTF8.GetBytes(s);
        }

        public static void AtEveryLimit()
        {
            var full = Full();
            var bytes = full.ToArray();
            Check.True(full.Equals(Chat.Decode(bytes)), "decoded equals the value at every limit");
            var into = Chat.Decode(bytes);
            into.DecodeInto(bytes);
            Check.Bytes(bytes, into.ToArray(), "DecodeInto a full value");

            var line = new Line { Words = new List<string> { Run('w', 6) }, Id = 3, Keys = new PktMap<string, byte>(PktKeyOrders.String) };
            line.Keys[Run('q', 3)] = 1;
            Check.Bytes(line.ToArray(), Line.Decode(line.ToArray()).ToArray(), "Line at its limits");
        }

        public static void OnePastAPartIsRejectedOnEveryPath()
        {
            var good = Full().ToArray();
            var cases = new[]
            {
                Part("test.limits.Chat.mentions[]", 24, Cat(Le(24), Text(Run('h', 24)))),
                Part("test.limits.Chat.tags[key]", 32, Cat(Le(32), Text(Run('k', 32)))),
                Part("test.limits.Chat.tags[value]", 256, Cat(Le(256), Fill(0xEE, 256))),
                Part("test.limits.Chat.notes[]", 4, Cat(new byte[] { 1 }, Le(4), Text("nnnn")), 1),
                Part("test.limits.Chat.grid[]", 2, Cat(Le(2), Le(5), Text(Run('t', 5)))),
                Part("test.limits.Chat.grid[][]", 5, Cat(Le(5), Text(Run('u', 5)))),
                Part("test.limits.Chat.slots[]", 2, Cat(Le(2), Fill(0xA3, 2))),
                Part("test.limits.Chat.groups[value]", 2, Cat(new byte[] { 1 }, Le(2), Le(7)), 1),
            };
            foreach (var c in cases)
            {
                var bad = (byte[])good.Clone();
                int at = Find(bad, c.Pattern) + c.Skip;
                Array.Copy(Le(c.Limit + 1), 0, bad, at, 4);
                var targets = new[]
                {
                    new KeyValuePair<string, Action>("Decode", () => Chat.Decode(bad)),
                    new KeyValuePair<string, Action>("DecodeInto a full value", () => Chat.Decode(good).DecodeInto(bad)),
                    new KeyValuePair<string, Action>("DecodeInto an empty value", () => new Chat().DecodeInto(bad)),
                };
                foreach (var t in targets)
                {
                    var what = c.Part + ", " + t.Key;
                    var e = Check.Fails(PktDecodeReason.FieldTooLong, t.Value, what);
                    Check.Equal((long)at, e.Offset, what + ": offset");
                    Check.True(e.Message.Contains("`" + c.Part + "`"), what + ": names the part: " + e.Message);
                }
            }

            var line = new Line { Words = new List<string> { Run('w', 6) }, Id = 3, Keys = new PktMap<string, byte>(PktKeyOrders.String) };
            line.Keys[Run('q', 3)] = 1;
            var lineBytes = line.ToArray();
            foreach (var c in new[]
            {
                Part("test.limits.Line.words[]", 6, Cat(Le(6), Text(Run('w', 6)))),
                Part("test.limits.Line.keys[key]", 3, Cat(Le(3), Text(Run('q', 3)))),
            })
            {
                var bad = (byte[])lineBytes.Clone();
                int at = Find(bad, c.Pattern) + c.Skip;
                Array.Copy(Le(c.Limit + 1), 0, bad, at, 4);
                foreach (var t in new[]
                {
                    new KeyValuePair<string, Action>("Decode", () => Line.Decode(bad)),
                    new KeyValuePair<string, Action>("DecodeInto a full value", () => Line.Decode(lineBytes).DecodeInto(bad)),
                })
                {
                    var what = c.Part + ", " + t.Key;
                    var e = Check.Fails(PktDecodeReason.FieldTooLong, t.Value, what);
                    Check.Equal((long)at, e.Offset, what + ": offset");
                    Check.True(e.Message.Contains("`" + c.Part + "`"), what + ": names the part: " + e.Message);
                }
            }

            var say = new Packet.Say(new List<string> { Run('s', 10) }).ToArray();
            int sayAt = Find(say, Cat(Le(10), Text(Run('s', 10))));
            Array.Copy(Le(11), 0, say, sayAt, 4);
            var err = Check.Fails(PktDecodeReason.FieldTooLong, () => Packet.Decode(say), "test.limits.Packet.Say[]");
            Check.Equal((long)sayAt, err.Offset, "test.limits.Packet.Say[]: offset");
            Check.True(err.Message.Contains("`test.limits.Packet.Say[]`"), "names the variant's part: " + err.Message);
        }

        public static void EncodersRefuseOnePastAPart()
        {
            var changes = new KeyValuePair<string, Action<Chat>>[]
            {
                new KeyValuePair<string, Action<Chat>>("test.limits.Chat.mentions[]", c => c.Mentions[7] = Run('x', 25)),
                new KeyValuePair<string, Action<Chat>>("test.limits.Chat.tags[key]", c => c.Tags[Run('z', 33)] = new byte[0]),
                new KeyValuePair<string, Action<Chat>>("test.limits.Chat.tags[value]", c => c.Tags[Run('k', 32)] = Fill(1, 257)),
                new KeyValuePair<string, Action<Chat>>("test.limits.Chat.notes[]", c => c.Notes[1] = Run('n', 5)),
                new KeyValuePair<string, Action<Chat>>("test.limits.Chat.grid[]", c => c.Grid[2].Add("")),
                new KeyValuePair<string, Action<Chat>>("test.limits.Chat.grid[][]", c => c.Grid[2][1] = Run('u', 6)),
                new KeyValuePair<string, Action<Chat>>("test.limits.Chat.slots[]", c => c.Slots[2] = Fill(1, 3)),
                new KeyValuePair<string, Action<Chat>>("test.limits.Chat.groups[value]", c => c.Groups[1].Add(9)),
            };
            foreach (var change in changes)
            {
                var c = Full();
                change.Value(c);
                try
                {
                    c.ToArray();
                    throw new AssertionException(change.Key + ": encoded a part over its limit");
                }
                catch (PktEncodeException e)
                {
                    Check.True(e.Message.Contains("`" + change.Key + "`"), change.Key + ": names the part: " + e.Message);
                }
            }
        }
    }
}
