// A typical game message (schemas/update.pkt: six scalar fields, a short
// string and a list of numbers) encoded into a byte[] at offset 100 and
// decoded from one, by pktc's default and unsafe output and by a
// hand-written unsafe encoder and decoder of the same bytes: what a
// developer writes with pointers, Encoding.UTF8 and a loop over the list,
// checking each length against the input as any decoder of network input
// must.

using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Text;

namespace PktBench
{
    public static class Message
    {
        public static int offset = 100;
        public static byte[] buffer = new byte[1024];

        public static Bench.Update.PlayerUpdate update = Sample();
        public static UnsafeOutput.Bench.Update.PlayerUpdate fastUpdate = UnsafeOutput.Bench.Update.PlayerUpdate.Decode(update.ToArray());
        public static byte[] wire = update.ToArray();
        public static byte[] readBuffer = At(wire);

        public static Bench.Update.PlayerUpdate decoded;
        public static UnsafeOutput.Bench.Update.PlayerUpdate fastDecoded;

        static Bench.Update.PlayerUpdate Sample()
        {
            var m = new Bench.Update.PlayerUpdate
            {
                EntityId = 1234567,
                Tick = 987654,
                X = 12.5f,
                Y = -3.25f,
                Z = 100.125f,
                Health = 87,
                Name = "Lumberjack",
            };
            for (int i = 0; i < 16; i++) m.Inputs.Add(i * 37 - 100);
            return m;
        }

        static byte[] At(byte[] bytes)
        {
            var b = new byte[1024];
            Array.Copy(bytes, 0, b, offset, bytes.Length);
            return b;
        }

        /// <summary>The hand-written encoder: one size computation, one range check, pointer stores.</summary>
        public static unsafe int EncodeByHand(Bench.Update.PlayerUpdate m, byte[] buffer, int offset)
        {
            string name = m.Name ?? "";
            List<int> inputs = m.Inputs;
            int count = inputs == null ? 0 : inputs.Count;
            int nameLength = Encoding.UTF8.GetByteCount(name);
            int body = 22 + 4 + nameLength + 4 + 4 * count;
            int total = 4 + body;
            if ((uint)offset > (uint)buffer.Length || buffer.Length - offset < total) throw new ArgumentException("buffer too small");
            fixed (byte* start = &buffer[offset])
            fixed (char* chars = name)
            {
                byte* p = start;
                *(int*)p = body;
                *(uint*)(p + 4) = m.EntityId;
                *(uint*)(p + 8) = m.Tick;
                *(float*)(p + 12) = m.X;
                *(float*)(p + 16) = m.Y;
                *(float*)(p + 20) = m.Z;
                *(short*)(p + 24) = m.Health;
                *(int*)(p + 26) = nameLength;
                p += 30;
                p += Encoding.UTF8.GetBytes(chars, name.Length, p, nameLength);
                *(int*)p = count;
                int* q = (int*)(p + 4);
                for (int i = 0; i < count; i++) q[i] = inputs[i];
            }
            return total;
        }

        /// <summary>The hand-written decoder: pointer loads, each length checked against what is left.</summary>
        public static unsafe Bench.Update.PlayerUpdate DecodeByHand(byte[] buffer, int offset, int length)
        {
            if ((uint)offset > (uint)buffer.Length || (uint)length > (uint)(buffer.Length - offset) || length < 34) throw new ArgumentException("too short");
            fixed (byte* start = &buffer[offset])
            {
                byte* p = start;
                byte* end = start + length;
                if (*(int*)p != length - 4) throw new ArgumentException("bad length");
                var m = new Bench.Update.PlayerUpdate();
                m.EntityId = *(uint*)(p + 4);
                m.Tick = *(uint*)(p + 8);
                m.X = *(float*)(p + 12);
                m.Y = *(float*)(p + 16);
                m.Z = *(float*)(p + 20);
                m.Health = *(short*)(p + 24);
                int nameLength = *(int*)(p + 26);
                p += 30;
                if (nameLength < 0 || nameLength > end - p - 4) throw new ArgumentException("bad name length");
                m.Name = Encoding.UTF8.GetString(p, nameLength);
                p += nameLength;
                int count = *(int*)p;
                p += 4;
                if (count < 0 || count > (end - p) / 4) throw new ArgumentException("bad count");
                var inputs = new List<int>(count);
                int* q = (int*)p;
                for (int i = 0; i < count; i++) inputs.Add(q[i]);
                m.Inputs = inputs;
                return m;
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void HandEncode() { EncodeByHand(update, buffer, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcEncode() { update.Encode(buffer, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafeEncode() { fastUpdate.Encode(buffer, offset); }

        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void HandDecode() { decoded = DecodeByHand(readBuffer, offset, wire.Length); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcDecode() { decoded = Bench.Update.PlayerUpdate.Decode(readBuffer, offset, wire.Length); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafeDecode() { fastDecoded = UnsafeOutput.Bench.Update.PlayerUpdate.Decode(readBuffer, offset, wire.Length); }

        /// <summary>What the last decode produced, re-encoded by pktc, and cleared.</summary>
        public static byte[] TakeDecoded()
        {
            byte[] bytes = decoded != null ? decoded.ToArray() : fastDecoded != null ? fastDecoded.ToArray() : new byte[0];
            decoded = null;
            fastDecoded = null;
            return bytes;
        }
    }
}
