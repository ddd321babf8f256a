// Decode throughput of collections of small elements (schemas/collections.pkt
// and the list<i32> of schemas/world.pkt), 2,000 elements each: the shapes
// a decoder spends the most on per input byte. Benign input: keys ascending,
// short ASCII strings.

using System;
using System.Collections.Generic;
using System.Diagnostics;

namespace PktBench
{
    public static class Collections
    {
        const int Count = 2000;

        struct Shape
        {
            public string Name;
            public string Method;
            public byte[] Wire;
            public Action Op;
            public Func<byte[]> Result;
        }

        static object sink;

        public static bool Run(Emitter emit, int samples)
        {
            var scores = new Bench.Collections.ScoreMap();
            for (int i = 0; i < Count; i++) scores.Scores.Add((ulong)i * 7919, (byte)i);
            var palette = new Bench.Collections.Palette();
            for (int i = 0; i < Count; i++) palette.Colors.Add(new byte[] { (byte)i, (byte)(i >> 8), 128, 255 });
            var tags = new Bench.Collections.TagSet();
            for (int i = 0; i < Count; i++) tags.Tags.Add("tag" + (i % 1000));
            var cells = new Seeds.World.WorldSnapshot();
            for (int i = 0; i < Count; i++) cells.Cells.Add(i * 7 - 1000);

            byte[] s = scores.ToArray(), p = palette.ToArray(), t = tags.ToArray(), c = cells.ToArray();
            var shapes = new List<Shape>
            {
                Row("map<u64, u8>", "pktc Decode", s, () => sink = Bench.Collections.ScoreMap.Decode(s), () => ((Bench.Collections.ScoreMap)sink).ToArray()),
                Row("map<u64, u8>", "pktc unsafe Decode", s, () => sink = UnsafeOutput.Bench.Collections.ScoreMap.Decode(s), () => ((UnsafeOutput.Bench.Collections.ScoreMap)sink).ToArray()),
                Row("list<[u8; 4]>", "pktc Decode", p, () => sink = Bench.Collections.Palette.Decode(p), () => ((Bench.Collections.Palette)sink).ToArray()),
                Row("list<[u8; 4]>", "pktc unsafe Decode", p, () => sink = UnsafeOutput.Bench.Collections.Palette.Decode(p), () => ((UnsafeOutput.Bench.Collections.Palette)sink).ToArray()),
                Row("list<string>", "pktc Decode", t, () => sink = Bench.Collections.TagSet.Decode(t), () => ((Bench.Collections.TagSet)sink).ToArray()),
                Row("list<string>", "pktc unsafe Decode", t, () => sink = UnsafeOutput.Bench.Collections.TagSet.Decode(t), () => ((UnsafeOutput.Bench.Collections.TagSet)sink).ToArray()),
                Row("list<i32>", "pktc Decode", c, () => sink = Seeds.World.WorldSnapshot.Decode(c), () => ((Seeds.World.WorldSnapshot)sink).ToArray()),
                Row("list<i32>", "pktc unsafe Decode", c, () => sink = UnsafeOutput.Seeds.World.WorldSnapshot.Decode(c), () => ((UnsafeOutput.Seeds.World.WorldSnapshot)sink).ToArray()),
                Row("map<u64, u8>", "pktc Encode(byte[], int)", s, () => scores.Encode(Out(s), 0), null),
                Row("list<[u8; 4]>", "pktc Encode(byte[], int)", p, () => palette.Encode(Out(p), 0), null),
                Row("list<string>", "pktc Encode(byte[], int)", t, () => tags.Encode(Out(t), 0), null),
                Row("list<i32>", "pktc Encode(byte[], int)", c, () => cells.Encode(Out(c), 0), null),
            };

            bool ok = true;
            foreach (var shape in shapes)
            {
                shape.Op();
                bool same = true;
                if (shape.Result != null)
                {
                    same = new ReadOnlySpan<byte>(shape.Result()).SequenceEqual(shape.Wire);
                }
                else
                {
                    same = new ReadOnlySpan<byte>(Out(shape.Wire)).SequenceEqual(shape.Wire);
                }
                if (!same) ok = false;
                emit("verify", shape.Name, shape.Method, same ? "ok" : "MISMATCH", shape.Wire.Length);
            }

            // Calls per sample: about 1 ms each, from the fastest of a few
            // timings (a collection during one must not shrink the samples).
            var calls = new int[shapes.Count];
            for (int i = 0; i < shapes.Count; i++)
            {
                double ns = double.MaxValue;
                for (int k = 0; k < 5; k++)
                {
                    Settle();
                    ns = Math.Min(ns, Time(shapes[i].Op, 3));
                }
                calls[i] = Math.Max(1, (int)(1e6 / Math.Max(ns, 1)));
                Time(shapes[i].Op, calls[i]);
            }
            var times = new List<double>[shapes.Count];
            for (int i = 0; i < shapes.Count; i++) times[i] = new List<double>(samples);
            for (int r = 0; r < samples; r++)
            {
                for (int k = 0; k < shapes.Count; k++)
                {
                    int i = (k + r) % shapes.Count;
                    Settle();
                    times[i].Add(Time(shapes[i].Op, calls[i]));
                }
            }
            for (int i = 0; i < shapes.Count; i++)
            {
                var t2 = times[i];
                t2.Sort();
                emit("throughput", shapes[i].Name, shapes[i].Method, shapes[i].Wire.Length, t2[t2.Count / 2], t2[0], t2[t2.Count - 1], t2.Count, calls[i]);
            }
            sink = null;
            return ok;
        }

        static readonly Dictionary<int, byte[]> outputs = new Dictionary<int, byte[]>();

        /// <summary>A reused output array of the shape's size.</summary>
        static byte[] Out(byte[] wire)
        {
            byte[] b;
            if (!outputs.TryGetValue(wire.Length, out b))
            {
                b = new byte[wire.Length];
                outputs.Add(wire.Length, b);
            }
            return b;
        }

        static Shape Row(string name, string method, byte[] wire, Action op, Func<byte[]> result)
        {
            return new Shape { Name = name, Method = method, Wire = wire, Op = op, Result = result };
        }

        /// <summary>
        /// A full collection before each sample, outside the timing: the
        /// garbage of one row is not collected in another row's time, while
        /// the collections a row's own allocations cause stay in its samples.
        /// </summary>
        static void Settle()
        {
            sink = null;
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        /// <summary>ns per call over <paramref name="n"/> calls.</summary>
        static double Time(Action op, int n)
        {
            var sw = Stopwatch.StartNew();
            for (int i = 0; i < n; i++) op();
            sw.Stop();
            return sw.ElapsedTicks * (1e9 / Stopwatch.Frequency) / n;
        }
    }
}
