// Runs the C# benchmarks and writes one tab-separated line per result:
//
//   meta    <key>     <value>
//   verify      <packet>  <method>  ok|MISMATCH  <bytes>
//   speed       <group>  <packet>  <method>  <median ns/op>  <min>  <max>  <samples>  <ops per sample>
//   throughput  <shape>  <method>  <bytes>  <median ns/call>  <min>  <max>  <samples>  <calls per sample>
//   alloc       <id>  <B/op>  <expected B/op>  <result bytes>  <gen0>  <gen1>  <gen2>  <ns/op>  <calls>
//
// Groups of speed rows: "encode" and "decode" (seed 004's packets), and
// "message" (schemas/update.pkt).
//
// Usage: mono PktCsBench.exe RESULTS.tsv [OPS_PER_SAMPLE] [SAMPLES]

using System;
using System.Buffers;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Reflection;
using System.Threading;

namespace PktBench
{
    /// <summary>A minimal reusable IBufferWriter: one array, reset between messages.</summary>
    public sealed class ReusableWriter : IBufferWriter<byte>
    {
        byte[] buffer;
        int written;

        public ReusableWriter(int capacity)
        {
            buffer = new byte[capacity];
        }

        public int WrittenCount { get { return written; } }

        public ReadOnlySpan<byte> WrittenSpan { get { return new ReadOnlySpan<byte>(buffer, 0, written); } }

        public void Reset()
        {
            written = 0;
        }

        public void Advance(int count)
        {
            if (count < 0 || written + count > buffer.Length) throw new ArgumentOutOfRangeException("count");
            written += count;
        }

        public Memory<byte> GetMemory(int sizeHint = 0)
        {
            Ensure(sizeHint);
            return new Memory<byte>(buffer, written, buffer.Length - written);
        }

        public Span<byte> GetSpan(int sizeHint = 0)
        {
            Ensure(sizeHint);
            return new Span<byte>(buffer, written, buffer.Length - written);
        }

        void Ensure(int sizeHint)
        {
            if (sizeHint < 1) sizeHint = 1;
            if (buffer.Length - written < sizeHint)
            {
                Array.Resize(ref buffer, Math.Max(buffer.Length * 2, written + sizeHint));
            }
        }
    }

    public static class Harness
    {
        static readonly List<string> Lines = new List<string>();
        static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

        static void Emit(params object[] fields)
        {
            var parts = new string[fields.Length];
            for (int i = 0; i < fields.Length; i++)
            {
                object f = fields[i];
                if (f is double) parts[i] = ((double)f).ToString("0.###", Inv);
                else parts[i] = Convert.ToString(f, Inv).Replace('\t', ' ').Replace('\n', ' ');
            }
            string line = string.Join("\t", parts);
            Lines.Add(line);
            Console.WriteLine(line);
        }

        public static int Main(string[] args)
        {
            if (args.Length < 1)
            {
                Console.Error.WriteLine("usage: PktCsBench.exe RESULTS.tsv [OPS_PER_SAMPLE] [SAMPLES]");
                return 2;
            }
            // Many short samples: on a shared machine most of them run
            // uninterrupted, so the median is the time of an undisturbed call.
            int ops = args.Length > 1 ? int.Parse(args[1], Inv) : 20000;
            int samples = args.Length > 2 ? int.Parse(args[2], Inv) : 201;

            Emit("meta", "runtime", RuntimeName());
            Emit("meta", "clr_version", Environment.Version);
            Emit("meta", "os", Environment.OSVersion);
            Emit("meta", "pointer_size", IntPtr.Size);
            Emit("meta", "gc_max_generation", GC.MaxGeneration);
            Emit("meta", "ops_per_sample", ops);
            Emit("meta", "samples", samples);

            // Cold first calls must come before anything else touches the types.
            Alloc.ColdFirstCalls(Emit);
            Alloc.Run(Emit);
            bool ok = Speed.Run(Emit, ops, samples);
            ok &= Collections.Run(Emit, samples);

            File.WriteAllLines(args[0], Lines);
            if (!ok)
            {
                Console.Error.WriteLine("some method wrote or read different bytes from pktc's");
                return 1;
            }
            return 0;
        }

        static string RuntimeName()
        {
            Type mono = Type.GetType("Mono.Runtime");
            if (mono == null) return ".NET " + Environment.Version;
            MethodInfo name = mono.GetMethod("GetDisplayName", BindingFlags.NonPublic | BindingFlags.Static);
            return "Mono " + (name == null ? "?" : (string)name.Invoke(null, null));
        }
    }

    public delegate void Emitter(params object[] fields);

    /// <summary>
    /// Seed 004's six methods and pktc's encoders, the hand-written unsafe
    /// readers and pktc's decoders, and the message benchmark, ns/op.
    /// </summary>
    public static class Speed
    {
        struct Entry
        {
            public string Group;
            public string Packet;
            public string Method;
            public Action Op;
            /// <summary>The bytes the method must write (encoders) or have read (decoders).</summary>
            public Func<byte[]> Expected;
            /// <summary>Decoders: what the method read, as pktc's bytes.</summary>
            public Func<byte[]> Read;
            /// <summary>Calls per sample, as a fraction of the common count (slow rows).</summary>
            public int Divisor;
        }

        static Entry E(string packet, string method, Action op, Func<byte[]> expected)
        {
            return new Entry { Group = "encode", Packet = packet, Method = method, Op = op, Expected = expected, Divisor = 1 };
        }

        static Entry D(string packet, string method, Action op, Func<byte[]> expected, Func<byte[]> read)
        {
            return new Entry { Group = "decode", Packet = packet, Method = method, Op = op, Expected = expected, Read = read, Divisor = 1 };
        }

        static Entry M(string method, Action op, bool decoder)
        {
            Func<byte[]> wire = () => Message.wire;
            return new Entry
            {
                Group = "message",
                Packet = decoder ? "PlayerUpdate decode" : "PlayerUpdate encode",
                Method = method,
                Op = op,
                Expected = wire,
                Read = decoder ? (Func<byte[]>)Message.TakeDecoded : null,
                Divisor = 20,
            };
        }

        public static bool Run(Emitter emit, int ops, int samples)
        {
            Func<byte[]> p1 = () => Seed004.Methods.pkPacket.ToArray();
            Func<byte[]> p2 = () => Seed004.Methods.pkInt3.ToArray();
            Func<byte[]> p3 = () => Seed004.Methods.pkTransform.ToArray();
            Func<byte[]> r1 = () => Seed004.Readers.pkPacket.ToArray();
            Func<byte[]> r2 = () => Seed004.Readers.pkInt3.ToArray();
            Func<byte[]> r3 = () => Seed004.Readers.pkTransform.ToArray();
            Func<byte[]> f1 = () => Seed004.Readers.fastPacket.ToArray();
            Func<byte[]> f2 = () => Seed004.Readers.fastInt3.ToArray();
            Func<byte[]> f3 = () => Seed004.Readers.fastTransform.ToArray();
            var entries = new List<Entry>
            {
                new Entry { Group = "-", Packet = "-", Method = "empty call", Op = Seed004.Methods.Empty, Divisor = 1 },
                E("Packet", "pktc Encode(byte[], int)", Seed004.Methods.Pktc_1, p1),
                E("Packet", "pktc Encode(Span)", Seed004.Methods.PktcSpan_1, p1),
                E("Packet", "pktc unsafe Encode(byte[], int)", Seed004.Methods.PktcUnsafe_1, p1),
                E("Packet", "pktc unsafe Encode(Span)", Seed004.Methods.PktcUnsafeSpan_1, p1),
                E("Packet", "BitConverter.GetBytes", Seed004.Methods.GetBytes_1, p1),
                E("Packet", "BitConverter.TryWriteBytes", Seed004.Methods.TryWriteBytes_1, p1),
                E("Packet", "Span/MemoryMarshal", Seed004.Methods.Span_1, p1),
                E("Packet", "unsafe pointer", Seed004.Methods.Unsafe_1, p1),
                E("Packet", "bit shifts", Seed004.Methods.BitCalculation_1, p1),
                E("Packet", "union struct", Seed004.Methods.UnionStruct_1, p1),
                E("Int3Packet", "pktc Encode(byte[], int)", Seed004.Methods.Pktc_2, p2),
                E("Int3Packet", "pktc Encode(Span)", Seed004.Methods.PktcSpan_2, p2),
                E("Int3Packet", "pktc unsafe Encode(byte[], int)", Seed004.Methods.PktcUnsafe_2, p2),
                E("Int3Packet", "pktc unsafe Encode(Span)", Seed004.Methods.PktcUnsafeSpan_2, p2),
                E("Int3Packet", "BitConverter.GetBytes", Seed004.Methods.GetBytes_2, p2),
                E("Int3Packet", "BitConverter.TryWriteBytes", Seed004.Methods.TryWriteBytes_2, p2),
                E("Int3Packet", "Span/MemoryMarshal", Seed004.Methods.Span_2, p2),
                E("Int3Packet", "unsafe pointer", Seed004.Methods.Unsafe_2, p2),
                E("Int3Packet", "bit shifts", Seed004.Methods.BitCalculation_2, p2),
                E("Int3Packet", "union struct", Seed004.Methods.UnionStruct_2, p2),
                E("TransformPacket", "pktc Encode(byte[], int)", Seed004.Methods.Pktc_3, p3),
                E("TransformPacket", "pktc Encode(Span)", Seed004.Methods.PktcSpan_3, p3),
                E("TransformPacket", "pktc unsafe Encode(byte[], int)", Seed004.Methods.PktcUnsafe_3, p3),
                E("TransformPacket", "pktc unsafe Encode(Span)", Seed004.Methods.PktcUnsafeSpan_3, p3),
                E("TransformPacket", "BitConverter.GetBytes", Seed004.Methods.GetBytes_3, p3),
                E("TransformPacket", "BitConverter.TryWriteBytes", Seed004.Methods.TryWriteBytes_3, p3),
                E("TransformPacket", "Span/MemoryMarshal", Seed004.Methods.Span_3, p3),
                E("TransformPacket", "unsafe pointer", Seed004.Methods.Unsafe_3, p3),
                E("TransformPacket", "union struct", Seed004.Methods.UnionStruct_3, p3),

                D("Packet", "pktc DecodeInto(byte[], int)", Seed004.Readers.PktcInto_1, p1, r1),
                D("Packet", "pktc Decode(byte[], int)", Seed004.Readers.Pktc_1, p1, r1),
                D("Packet", "pktc Decode(ReadOnlySpan)", Seed004.Readers.PktcSpan_1, p1, r1),
                D("Packet", "pktc unsafe DecodeInto(byte[], int)", Seed004.Readers.PktcUnsafeInto_1, p1, f1),
                D("Packet", "pktc unsafe Decode(byte[], int)", Seed004.Readers.PktcUnsafe_1, p1, f1),
                D("Packet", "BitConverter.ToXxx", Seed004.Readers.ToXxx_1, p1, Seed004.Readers.ReadPacket),
                D("Packet", "unsafe pointer", Seed004.Readers.Unsafe_1, p1, Seed004.Readers.ReadPacket),
                D("Int3Packet", "pktc DecodeInto(byte[], int)", Seed004.Readers.PktcInto_2, p2, r2),
                D("Int3Packet", "pktc Decode(byte[], int)", Seed004.Readers.Pktc_2, p2, r2),
                D("Int3Packet", "pktc Decode(ReadOnlySpan)", Seed004.Readers.PktcSpan_2, p2, r2),
                D("Int3Packet", "pktc unsafe DecodeInto(byte[], int)", Seed004.Readers.PktcUnsafeInto_2, p2, f2),
                D("Int3Packet", "pktc unsafe Decode(byte[], int)", Seed004.Readers.PktcUnsafe_2, p2, f2),
                D("Int3Packet", "BitConverter.ToXxx", Seed004.Readers.ToXxx_2, p2, Seed004.Readers.ReadInt3),
                D("Int3Packet", "unsafe pointer", Seed004.Readers.Unsafe_2, p2, Seed004.Readers.ReadInt3),
                D("TransformPacket", "pktc DecodeInto(byte[], int)", Seed004.Readers.PktcInto_3, p3, r3),
                D("TransformPacket", "pktc Decode(byte[], int)", Seed004.Readers.Pktc_3, p3, r3),
                D("TransformPacket", "pktc Decode(ReadOnlySpan)", Seed004.Readers.PktcSpan_3, p3, r3),
                D("TransformPacket", "pktc unsafe DecodeInto(byte[], int)", Seed004.Readers.PktcUnsafeInto_3, p3, f3),
                D("TransformPacket", "pktc unsafe Decode(byte[], int)", Seed004.Readers.PktcUnsafe_3, p3, f3),
                D("TransformPacket", "BitConverter.ToXxx", Seed004.Readers.ToXxx_3, p3, Seed004.Readers.ReadTransform),
                D("TransformPacket", "unsafe pointer", Seed004.Readers.Unsafe_3, p3, Seed004.Readers.ReadTransform),

                M("pktc Encode(byte[], int)", Message.PktcEncode, false),
                M("pktc unsafe Encode(byte[], int)", Message.PktcUnsafeEncode, false),
                M("hand-written unsafe", Message.HandEncode, false),
                M("pktc Decode(byte[], int, int)", Message.PktcDecode, true),
                M("pktc unsafe Decode(byte[], int, int)", Message.PktcUnsafeDecode, true),
                M("hand-written unsafe", Message.HandDecode, true),
            };

            // Every encoder must write exactly pktc's bytes at the offset and
            // nothing else; every decoder must read back the bytes it was given.
            bool ok = true;
            foreach (var e in entries)
            {
                if (e.Expected == null) continue;
                byte[] want = e.Expected();
                bool same = true;
                if (e.Read != null)
                {
                    Seed004.Readers.Clear();
                    e.Op();
                    same = new ReadOnlySpan<byte>(e.Read()).SequenceEqual(want);
                }
                else
                {
                    byte[] buffer = e.Group == "message" ? Message.buffer : Seed004.Methods.buffer;
                    int offset = e.Group == "message" ? Message.offset : Seed004.Methods.offset;
                    Array.Clear(buffer, 0, buffer.Length);
                    e.Op();
                    for (int i = 0; i < buffer.Length; i++)
                    {
                        byte expect = i >= offset && i < offset + want.Length ? want[i - offset] : (byte)0;
                        if (buffer[i] != expect) same = false;
                    }
                }
                if (!same) ok = false;
                emit("verify", e.Packet, e.Method, same ? "ok" : "MISMATCH", want.Length);
            }

            // Warm-up: every method, well past JIT and the first GCs.
            foreach (var e in entries)
            {
                Loop(e.Op, Math.Max(ops / 5 / e.Divisor, 1));
            }

            // Samples: every method once per round, rotating the starting
            // method, so slow drifts of the shared machine hit all of them.
            var times = new List<double>[entries.Count];
            for (int i = 0; i < entries.Count; i++) times[i] = new List<double>(samples);
            for (int s = 0; s < samples; s++)
            {
                for (int k = 0; k < entries.Count; k++)
                {
                    int i = (k + s) % entries.Count;
                    times[i].Add(Loop(entries[i].Op, Math.Max(ops / entries[i].Divisor, 1)));
                }
            }
            for (int i = 0; i < entries.Count; i++)
            {
                var t = times[i];
                t.Sort();
                var e = entries[i];
                emit("speed", e.Group, e.Packet, e.Method, t[t.Count / 2], t[0], t[t.Count - 1], t.Count, Math.Max(ops / e.Divisor, 1));
            }
            return ok;
        }

        /// <summary>ns per call of <paramref name="op"/> over <paramref name="n"/> calls.</summary>
        static double Loop(Action op, int n)
        {
            var sw = Stopwatch.StartNew();
            for (int i = 0; i < n; i++)
            {
                op();
            }
            sw.Stop();
            return sw.ElapsedTicks * (1e9 / Stopwatch.Frequency) / n;
        }
    }
}
