// Frozen variable-size structs (schemas/frozen.pkt): exact bytes, decode-into
// reuse without stale elements, and allocations.
using System;
using Pkt;
using Test.Frozen;

namespace PktTests
{
    public static class FrozenTests
    {
        private const string EntryHex = "01 07 00 00 00 00 00 00 00 02 00 00 00 64 62 04 00 00 00 73 6c 6f 77";

        private static long Now() { return GC.GetAllocatedBytesForCurrentThread(); }

        private static long PerCall(Action a, int n)
        {
            a();
            long before = Now();
            for (int i = 0; i < n; i++) a();
            return (Now() - before) / n;
        }

        private static Entry MakeEntry()
        {
            return new Entry { Level = Level.Warn, At = 7, Source = "db", Text = "slow" };
        }

        public static void Golden()
        {
            var e = MakeEntry();
            var expected = Hex.Parse(EntryHex);
            Check.Equal(23, e.GetEncodedSize(), "GetEncodedSize");
            Check.Bytes(expected, e.ToArray(), "Entry: fields back to back, no length prefix");
            var back = Entry.Decode(expected);
            Check.Equal("slow", back.Text, "Text");
            Check.Equal("db", back.Source, "Source");
            Check.Equal(7UL, back.At, "At");
            // Inside a message the struct still has no prefix of its own.
            var b = new Batch { Seq = 1 };
            b.Entries.Add(e);
            Check.Bytes(Hex.Parse("24 00 00 00 01 00 00 00 01 00 00 00 " + EntryHex + " 00 00 00 00 00"), b.ToArray(), "Batch");
            // Null fields encode as their defaults.
            var empty = new Entry { Source = null, Text = null };
            Check.Bytes(Hex.Parse("00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"), empty.ToArray(), "null strings");
        }

        public static void Errors()
        {
            // Over @max(64): the same error as a message field.
            var e = MakeEntry();
            e.Source = new string('x', 65);
            bool refused = false;
            try { e.ToArray(); } catch (PktEncodeException) { refused = true; }
            Check.True(refused, "encoder refuses over @max");
            // The same error kinds and offsets as Rust (rust-tests/tests/golden.rs).
            var bytes = Hex.Parse("01 07 00 00 00 00 00 00 00 41 00 00 00");
            var err = Check.Fails(PktDecodeReason.FieldTooLong, () => Entry.Decode(bytes), "decoder refuses over @max");
            Check.Equal(9L, err.Offset, "offset of the length prefix");
            var cut = Hex.Parse(EntryHex);
            err = Check.Fails(PktDecodeReason.LengthExceedsInput, () => Entry.Decode(new ReadOnlySpan<byte>(cut, 0, cut.Length - 1)), "truncated");
            Check.Equal(15L, err.Offset, "offset of the cut string's prefix");
            var bad = Hex.Parse(EntryHex);
            bad[bad.Length - 1] = 0xff;
            err = Check.Fails(PktDecodeReason.InvalidUtf8, () => Entry.Decode(bad), "bad UTF-8");
            Check.Equal(22L, err.Offset, "offset of the bad byte");
        }

        public static void DecodeIntoReuse()
        {
            var big = new Batch { Seq = 1 };
            for (int i = 0; i < 3; i++) big.Entries.Add(new Entry { At = (ulong)i, Source = "s" + i, Text = "t" });
            var small = new Batch { Seq = 2 };
            small.Entries.Add(new Entry { Level = Level.Error, At = 9, Source = "", Text = "only" });
            var target = Batch.Decode(big.ToArray());
            var first = target.Entries[0];
            target.DecodeInto(small.ToArray());
            Check.Equal(1, target.Entries.Count, "no stale elements");
            Check.True(ReferenceEquals(first, target.Entries[0]), "the element object is reused");
            Check.Equal("only", target.Entries[0].Text, "Text");
            Check.Equal("", target.Entries[0].Source, "Source");
            Check.Equal(9UL, target.Entries[0].At, "At");
            Check.Bytes(small.ToArray(), target.ToArray(), "re-encoded");

            // A struct decoded into directly.
            var e = Entry.Decode(Hex.Parse(EntryHex));
            e.DecodeInto(new Entry { Text = "z" }.ToArray());
            Check.Equal("", e.Source, "Source overwritten");
            Check.Equal("z", e.Text, "Text overwritten");
        }

        public static void Allocations()
        {
            var big = new Batch { Seq = 1 };
            for (int i = 0; i < 3; i++) big.Entries.Add(new Entry { At = (ulong)i, Source = "s" + i, Text = "t" });
            var bytes = big.ToArray();
            var buffer = new byte[1024];

            long v = PerCall(() => big.Encode(buffer), 100);
            Console.WriteLine("alloc Encode(Span)(Batch of 3 frozen Entry): " + v + " B");
            Check.Equal(0L, v, "Encode(Span)");

            var t = new Batch();
            v = PerCall(() => t.DecodeInto(bytes), 100);
            Console.WriteLine("alloc DecodeInto(Batch of 3 frozen Entry, equal strings): " + v + " B");
            Check.Equal(0L, v, "DecodeInto reuses the elements and their strings");

            long graph = PerCall(() =>
            {
                var x = new Batch();
                x.Entries.Capacity = 3;
                for (int i = 0; i < 3; i++)
                {
                    var y = new Entry();
                    y.Source = new string('s', 2);
                    y.Text = new string('t', 1);
                    x.Entries.Add(y);
                }
            }, 100);
            v = PerCall(() => Batch.Decode(bytes), 100);
            Console.WriteLine("alloc Decode(Batch of 3 frozen Entry): " + v + " B; the object graph alone: " + graph + " B");
            Check.Equal(graph, v, "Decode allocates the resulting object graph only");
        }
    }
}
