// The reading direction of seed article 004, which only measures writing:
// the article's packets read back from a byte[] at offset 100 the way its
// fastest writer stores them (an unsafe pointer load per field, each under
// its own `fixed`, into the packet object), and with BitConverter.ToXxx,
// the reading counterpart of its GetBytes baseline; beside pktc's decoders
// of the same bytes, default and unsafe output.

using System;
using System.Runtime.CompilerServices;

namespace PktBench.Seed004
{
    public static class Readers
    {
        const int USHORT_SIZE = sizeof(ushort);
        const int INT_SIZE = sizeof(int);
        const int FLOAT_SIZE = sizeof(float);
        public static int offset = Methods.offset;

        // Each packet's bytes at offset 100 of its own buffer.
        public static byte[] read1 = At(Methods.pkPacket.ToArray());
        public static byte[] read2 = At(Methods.pkInt3.ToArray());
        public static byte[] read3 = At(Methods.pkTransform.ToArray());

        static byte[] At(byte[] bytes)
        {
            var b = new byte[1024];
            Array.Copy(bytes, 0, b, offset, bytes.Length);
            return b;
        }

        // Hand-written readers fill these (objects, as in the article).
        public static Packet packet = new Packet(0);
        public static Int3Packet int3Packet = new Int3Packet(0, 0, 0, 0);
        public static TransformPacket trPacket = new TransformPacket(0);

        // pktc's decoders fill these (structs: DecodeInto overwrites in place).
        public static Seeds.Packets.Packet pkPacket;
        public static Seeds.Packets.Int3Packet pkInt3;
        public static Seeds.Packets.TransformPacket pkTransform;
        public static UnsafeOutput.Seeds.Packets.Packet fastPacket;
        public static UnsafeOutput.Seeds.Packets.Int3Packet fastInt3;
        public static UnsafeOutput.Seeds.Packets.TransformPacket fastTransform;

        // Unsafe pointer loads, the mirror of the article's [4].
        static unsafe void Deserialize_Unsafe(byte[] buffer, int offset, out ushort data)
        {
            fixed (byte* bPtr = &buffer[offset])
            {
                data = *(ushort*)bPtr;
            }
        }
        static unsafe void Deserialize_Unsafe(byte[] buffer, int offset, out int data)
        {
            fixed (byte* bPtr = &buffer[offset])
            {
                data = *(int*)bPtr;
            }
        }
        static unsafe void Deserialize_Unsafe(byte[] buffer, int offset, out float data)
        {
            fixed (byte* bPtr = &buffer[offset])
            {
                data = *(float*)bPtr;
            }
        }

        // ---- Packet ----
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Unsafe_1()
        {
            var p = packet;
            Deserialize_Unsafe(read1, offset, out p.size);
            Deserialize_Unsafe(read1, offset + USHORT_SIZE, out p.id);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void ToXxx_1()
        {
            var p = packet;
            p.size = BitConverter.ToUInt16(read1, offset);
            p.id = BitConverter.ToUInt16(read1, offset + USHORT_SIZE);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcInto_1() { pkPacket.DecodeInto(read1, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Pktc_1() { pkPacket = Seeds.Packets.Packet.Decode(read1, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcSpan_1() { pkPacket = Seeds.Packets.Packet.Decode(new ReadOnlySpan<byte>(read1, offset, Seeds.Packets.Packet.EncodedSize)); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafeInto_1() { fastPacket.DecodeInto(read1, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafe_1() { fastPacket = UnsafeOutput.Seeds.Packets.Packet.Decode(read1, offset); }

        // ---- Int3Packet ----
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Unsafe_2()
        {
            int cur = 0;
            var p = int3Packet;
            Deserialize_Unsafe(read2, offset, out p.size); cur += USHORT_SIZE;
            Deserialize_Unsafe(read2, offset + cur, out p.id); cur += USHORT_SIZE;
            Deserialize_Unsafe(read2, offset + cur, out p.x); cur += INT_SIZE;
            Deserialize_Unsafe(read2, offset + cur, out p.y); cur += INT_SIZE;
            Deserialize_Unsafe(read2, offset + cur, out p.z);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void ToXxx_2()
        {
            int cur = 0;
            var p = int3Packet;
            p.size = BitConverter.ToUInt16(read2, offset); cur += USHORT_SIZE;
            p.id = BitConverter.ToUInt16(read2, offset + cur); cur += USHORT_SIZE;
            p.x = BitConverter.ToInt32(read2, offset + cur); cur += INT_SIZE;
            p.y = BitConverter.ToInt32(read2, offset + cur); cur += INT_SIZE;
            p.z = BitConverter.ToInt32(read2, offset + cur);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcInto_2() { pkInt3.DecodeInto(read2, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Pktc_2() { pkInt3 = Seeds.Packets.Int3Packet.Decode(read2, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcSpan_2() { pkInt3 = Seeds.Packets.Int3Packet.Decode(new ReadOnlySpan<byte>(read2, offset, Seeds.Packets.Int3Packet.EncodedSize)); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafeInto_2() { fastInt3.DecodeInto(read2, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafe_2() { fastInt3 = UnsafeOutput.Seeds.Packets.Int3Packet.Decode(read2, offset); }

        // ---- TransformPacket ----
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Unsafe_3()
        {
            int cur = 0;
            var p = trPacket;
            Deserialize_Unsafe(read3, offset, out p.size); cur += USHORT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.id); cur += USHORT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.posX); cur += FLOAT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.posY); cur += FLOAT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.posZ); cur += FLOAT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.rotX); cur += FLOAT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.rotY); cur += FLOAT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.rotZ); cur += FLOAT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.scaleX); cur += FLOAT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.scaleY); cur += FLOAT_SIZE;
            Deserialize_Unsafe(read3, offset + cur, out p.scaleZ);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void ToXxx_3()
        {
            int cur = 0;
            var p = trPacket;
            p.size = BitConverter.ToUInt16(read3, offset); cur += USHORT_SIZE;
            p.id = BitConverter.ToUInt16(read3, offset + cur); cur += USHORT_SIZE;
            p.posX = BitConverter.ToSingle(read3, offset + cur); cur += FLOAT_SIZE;
            p.posY = BitConverter.ToSingle(read3, offset + cur); cur += FLOAT_SIZE;
            p.posZ = BitConverter.ToSingle(read3, offset + cur); cur += FLOAT_SIZE;
            p.rotX = BitConverter.ToSingle(read3, offset + cur); cur += FLOAT_SIZE;
            p.rotY = BitConverter.ToSingle(read3, offset + cur); cur += FLOAT_SIZE;
            p.rotZ = BitConverter.ToSingle(read3, offset + cur); cur += FLOAT_SIZE;
            p.scaleX = BitConverter.ToSingle(read3, offset + cur); cur += FLOAT_SIZE;
            p.scaleY = BitConverter.ToSingle(read3, offset + cur); cur += FLOAT_SIZE;
            p.scaleZ = BitConverter.ToSingle(read3, offset + cur);
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcInto_3() { pkTransform.DecodeInto(read3, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Pktc_3() { pkTransform = Seeds.Packets.TransformPacket.Decode(read3, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcSpan_3() { pkTransform = Seeds.Packets.TransformPacket.Decode(new ReadOnlySpan<byte>(read3, offset, Seeds.Packets.TransformPacket.EncodedSize)); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafeInto_3() { fastTransform.DecodeInto(read3, offset); }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void PktcUnsafe_3() { fastTransform = UnsafeOutput.Seeds.Packets.TransformPacket.Decode(read3, offset); }

        /// <summary>Clears every destination, so a check sees only what the next read wrote.</summary>
        public static void Clear()
        {
            packet = new Packet(0);
            int3Packet = new Int3Packet(0, 0, 0, 0);
            trPacket = new TransformPacket(0);
            pkPacket = default(Seeds.Packets.Packet);
            pkInt3 = default(Seeds.Packets.Int3Packet);
            pkTransform = default(Seeds.Packets.TransformPacket);
            fastPacket = default(UnsafeOutput.Seeds.Packets.Packet);
            fastInt3 = default(UnsafeOutput.Seeds.Packets.Int3Packet);
            fastTransform = default(UnsafeOutput.Seeds.Packets.TransformPacket);
        }

        // What each reader read, as pktc's encoding of it (to compare with the source bytes).
        public static byte[] ReadPacket() { return new Seeds.Packets.Packet { Size = packet.size, Id = packet.id }.ToArray(); }
        public static byte[] ReadInt3()
        {
            var p = int3Packet;
            return new Seeds.Packets.Int3Packet { Size = p.size, Id = p.id, X = p.x, Y = p.y, Z = p.z }.ToArray();
        }
        public static byte[] ReadTransform()
        {
            var p = trPacket;
            return new Seeds.Packets.TransformPacket
            {
                Size = p.size, Id = p.id,
                PosX = p.posX, PosY = p.posY, PosZ = p.posZ,
                RotX = p.rotX, RotY = p.rotY, RotZ = p.rotZ,
                ScaleX = p.scaleX, ScaleY = p.scaleY, ScaleZ = p.scaleZ,
            }.ToArray();
        }
    }
}
