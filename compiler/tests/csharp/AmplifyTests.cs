// The decode budget against the amplifier shapes of schemas/amplify.pkt:
// inputs of 1 MB and 16 MB that make the decoded value as large as the budget
// allows (or try to go past it). Every decode must stay within
//   allocated bytes <= F * (budget charged) + G * (input bytes) + Slack,
// the C# constants stated in docs/security.md.
using System;
using Pkt;
using Test.Amplify;

namespace PktTests
{
    public static class AmplifyTests
    {
        /// <summary>Allocated bytes per model byte charged to the budget.</summary>
        public const long F = 3;
        /// <summary>Allocated bytes per input byte.</summary>
        public const long G = 2;
        /// <summary>Fixed part: the top-level object and the exception of a rejected input.</summary>
        public const long Slack = 64 * 1024;

        private const int MiB = 1024 * 1024;

        private delegate void ReadAction(ref PktReader r);

        private sealed class Wire
        {
            public readonly byte[] Bytes;
            public int Pos;
            public Wire(int size) { Bytes = new byte[size]; }
            public void U32(uint v) { BitConverter.GetBytes(v).CopyTo(Bytes, Pos); Pos += 4; }
            public void U8(byte v) { Bytes[Pos++] = v; }
            public void I32(int v) { BitConverter.GetBytes(v).CopyTo(Bytes, Pos); Pos += 4; }
            /// <summary>The message body length of a top-level message that fills the whole input.</summary>
            public void Body() { U32((uint)(Bytes.Length - 4)); }
        }

        private static long Budget(int n) { return PktLimits.Budget(null, n); }

        /// <summary>Elements of model size <paramref name="each"/> the budget of an <paramref name="n"/>-byte input allows.</summary>
        private static int MaxCount(int n, long each) { return (int)(Budget(n) / each); }

        private static void Measure(string what, byte[] input, ReadAction read, bool mustAccept)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            var r = new PktReader(input, null);
            PktDecodeReason? failed = null;
            try
            {
                read(ref r);
                r.ExpectEnd();
            }
            catch (PktDecodeException e)
            {
                failed = e.Reason;
            }
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            long charged = Budget(input.Length) - r.BudgetLeft;
            long bound = F * charged + G * input.Length + Slack;
            Console.WriteLine("amplify " + what + " (" + input.Length + " B): " + (failed == null ? "accepted" : "rejected " + failed)
                + ", charged " + charged + ", allocated " + allocated + " B (" + ((double)allocated / input.Length).ToString("0.00")
                + " per input byte, " + (charged == 0 ? "-" : ((double)allocated / charged).ToString("0.00")) + " per charged byte), bound " + bound);
            Check.True(allocated <= bound, what + ": allocated " + allocated + " B over the bound " + bound);
            Check.True(charged <= Budget(input.Length), what + ": charged within the budget");
            if (mustAccept) Check.True(failed == null, what + ": accepted (failed " + failed + ")");
            else Check.Equal(PktDecodeReason.BudgetExceeded, failed.GetValueOrDefault(), what + ": rejected by the budget");
        }

        /// <summary>count absent BigS? elements, then padding to n bytes inside the body.</summary>
        private static byte[] OptionalBigsInput(int n, int count)
        {
            var w = new Wire(n);
            w.Body();
            w.U32((uint)count);
            return w.Bytes; // absent flags and padding are all zero
        }

        private static byte[] EmptyBodies(int n, int count)
        {
            var w = new Wire(n);
            w.Body();
            w.U32((uint)count);
            for (int i = 0; i < count; i++) w.U32(0);
            return w.Bytes;
        }

        private static byte[] UnknownVariants(int n, int count)
        {
            var w = new Wire(n);
            w.Body();
            w.U32((uint)count);
            for (int i = 0; i < count; i++)
            {
                w.U32(1);
                w.U8(99);
            }
            return w.Bytes;
        }

        /// <summary>One unknown variant whose body fills the input: kept verbatim.</summary>
        private static byte[] OneLargeUnknown(int n)
        {
            var w = new Wire(n);
            w.Body();
            w.U32(1);
            w.U32((uint)(n - 12));
            w.U8(99);
            return w.Bytes;
        }

        private static byte[] DescendingMap(int n)
        {
            int count = (n - 8) / 5;
            var w = new Wire(8 + 5 * count);
            w.Body();
            w.U32((uint)count);
            for (int i = 0; i < count; i++)
            {
                w.I32(count - i);
                w.U8(1);
            }
            return w.Bytes;
        }

        private static byte[] ZeroCounts(int n, int count)
        {
            var w = new Wire(n);
            w.Body();
            w.U32((uint)count);
            return w.Bytes; // every inner list is a zero count
        }

        public static void BudgetBoundsAllocation()
        {
            foreach (int n in new[] { 1 * MiB, 16 * MiB })
            {
                string size = n / MiB + " MB";
                long optionalBig = 4104, big = 32768, variant = 32776, withDefault = 24 + 1040;
                int all = (n - 8) / 4;
                Measure("OptionalBigs max " + size, OptionalBigsInput(n, MaxCount(n, optionalBig)), (ref PktReader r) => OptionalBigs.ReadFrom(ref r), true);
                Measure("OptionalBigs all absent " + size, OptionalBigsInput(n, n - 8), (ref PktReader r) => OptionalBigs.ReadFrom(ref r), false);
                Measure("Bigs max " + size, EmptyBodies(n, MaxCount(n, big)), (ref PktReader r) => Bigs.ReadFrom(ref r), true);
                Measure("Bigs all empty " + size, EmptyBodies(n, all), (ref PktReader r) => Bigs.ReadFrom(ref r), false);
                Measure("VariantList max " + size, UnknownVariants(n, MaxCount(n, variant)), (ref PktReader r) => VariantList.ReadFrom(ref r), true);
                Measure("VariantList all unknown " + size, UnknownVariants(n, (n - 8) / 5), (ref PktReader r) => VariantList.ReadFrom(ref r), false);
                Measure("VariantList one large unknown " + size, OneLargeUnknown(n), (ref PktReader r) => VariantList.ReadFrom(ref r), true);
                Measure("Defaults max " + size, EmptyBodies(n, MaxCount(n, withDefault)), (ref PktReader r) => Defaults.ReadFrom(ref r), true);
                Measure("Defaults all empty " + size, EmptyBodies(n, all), (ref PktReader r) => Defaults.ReadFrom(ref r), false);
                Measure("IntMap descending " + size, DescendingMap(n), (ref PktReader r) => IntMap.ReadFrom(ref r), true);
                Measure("NestedLists all empty " + size, ZeroCounts(n, all), (ref PktReader r) => NestedLists.ReadFrom(ref r), true);
                Measure("Strings all empty " + size, ZeroCounts(n, all), (ref PktReader r) => Strings.ReadFrom(ref r), true);
                // A variable-size struct: absent Big? and an empty string, five zero bytes each.
                long frozenBig = 32800;
                Measure("FrozenBigs max " + size, ZeroCounts(n, MaxCount(n, frozenBig)), (ref PktReader r) => FrozenBigs.ReadFrom(ref r), true);
                Measure("FrozenBigs all empty " + size, ZeroCounts(n, (n - 8) / 5), (ref PktReader r) => FrozenBigs.ReadFrom(ref r), false);
            }
        }

        public static void BudgetErrors()
        {
            // 40 empty Big bodies: 40 × 32 KiB charged at the count (offset 4).
            var input = EmptyBodies(8 + 4 * 40, 40);
            var e = Check.Fails(PktDecodeReason.BudgetExceeded, () => Bigs.Decode(input), "Bigs");
            Check.Equal(4L, e.Offset, "charged at the count prefix");
            Check.True(e.Message.Contains("`test.amplify.Bigs.items`"), "names the field: " + e.Message);
            // The same input under a larger budget decodes, allocating each array once.
            var roomy = new PktLimits(64, 1 << 24, 1 << 24, 1 << 24, 64L * MiB, 32);
            long before = GC.GetAllocatedBytesForCurrentThread();
            var bigs = Bigs.Decode(input, roomy);
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Check.Equal(40, bigs.Items.Count, "decoded");
            Console.WriteLine("alloc Decode(Bigs, 40 empty bodies of [u64; 4096]): " + allocated + " B");
            Check.True(allocated < 41 * (32768 + 1024), "one array per empty body, not two: " + allocated);
            // DecodeInto reuses the arrays: absent fields are cleared in place.
            before = GC.GetAllocatedBytesForCurrentThread();
            bigs.DecodeInto(input, roomy);
            Check.True(GC.GetAllocatedBytesForCurrentThread() - before < 4096, "DecodeInto reuses the arrays");
            // A default string literal is charged when the field is absent, at the body end.
            var defaults = EmptyBodies(8 + 4 * 2000, 2000);
            var d = Check.Fails(PktDecodeReason.BudgetExceeded, () => Defaults.Decode(defaults), "Defaults");
            Check.True(d.Message.Contains("`test.amplify.WithDefault.s`"), "names the defaulted field: " + d.Message);
            // Unknown variant bodies are charged at their start.
            var small = new PktLimits(64, 1 << 24, 1 << 24, 1 << 24, 32776 + 10, 0);
            var unknown = OneLargeUnknown(64);
            var u = Check.Fails(PktDecodeReason.BudgetExceeded, () => VariantList.Decode(unknown, small), "unknown body");
            Check.Equal(13L, u.Offset, "unknown body charged where it starts");
        }

        /// <summary>An int order that counts its comparisons.</summary>
        private sealed class CountingOrder : PktKeyOrder<int>
        {
            public long Comparisons;
            public override int Compare(int a, int b) { Comparisons++; return a.CompareTo(b); }
        }

        /// <summary>
        /// Comparisons made by the decoder's entry points of PktMap (the ones
        /// read_map.hbs calls) for n keys arriving in descending order, the
        /// worst order for a sorted map.
        /// </summary>
        private static long DescendingDecodeComparisons(int n)
        {
            var order = new CountingOrder();
            var map = new PktMap<int, byte>(order);
            for (int k = n; k >= 1; k--)
            {
                Check.True(map.IsNewDecodedKey(k), "new key " + k);
                map.AppendDecoded(k, 1);
            }
            map.EndDecoded();
            Check.True(map.KeyAt(0) == 1 && map.KeyAt(n - 1) == n, "sorted");
            return order.Comparisons;
        }

        public static void MapsDecodeInNLogN()
        {
            // Counted, not timed: a sorted insertion per key would make
            // n^2/4 comparisons (2^32 for 2^17 keys); the set and the heapsort
            // make at most a few n log2 n.
            const int n = 1 << 15;
            long c1 = DescendingDecodeComparisons(n);
            long c4 = DescendingDecodeComparisons(4 * n);
            Console.WriteLine("comparisons decoding descending keys: " + n + " keys " + c1 + ", " + (4 * n) + " keys " + c4);
            Check.True(c1 <= 4L * n * 15, n + " keys: " + c1 + " comparisons, more than 4 n log2 n");
            Check.True(c4 <= 4L * (4 * n) * 17, (4 * n) + " keys: " + c4 + " comparisons, more than 4 n log2 n");
            // Four times the keys: a little over four times the work (n log n), not sixteen (n^2).
            Check.True(c4 < 5 * c1, "growth from " + n + " to " + (4 * n) + " keys: " + c1 + " -> " + c4);
            // The generated decoder goes through those entry points: 1 MB of
            // descending keys decodes into a sorted map.
            var m = IntMap.Decode(DescendingMap(MiB));
            Check.Equal((MiB - 8) / 5, m.Entries.Count, "1 MB map");
            int prev = 0;
            foreach (var kv in m.Entries)
            {
                Check.True(kv.Key > prev, "ascending");
                prev = kv.Key;
            }
            // A repeated key far from its first occurrence is still caught, at the repeat.
            var dup = DescendingMap(8 + 5 * 100);
            BitConverter.GetBytes(50).CopyTo(dup, 8 + 5 * 90);
            var e = Check.Fails(PktDecodeReason.DuplicateMapKey, () => IntMap.Decode(dup), "duplicate");
            Check.Equal((long)(8 + 5 * 90), e.Offset, "offset of the repeated key");
        }
    }
}
