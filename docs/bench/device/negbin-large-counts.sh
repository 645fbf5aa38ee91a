# negbin at counts of about 1e6 on the GPU in float and double against the CPU (the cancellation-free kernels)
G=./build-gpu/app/gamboost
python3 -c "
import csv
rows=list(csv.reader(open('/tmp/n.csv')))
with open('/tmp/n6.csv','w') as f:
    w=csv.writer(f); w.writerow(rows[0])
    for r in rows[1:]: w.writerow([str(int(r[0])*10**6)]+r[1:])"
for b in cpu "opencl --precision float" "opencl --precision double"; do
  $G fit --data /tmp/n6.csv --response cnt --family negbin --spline $(head -1 /tmp/s.csv | cut -d, -f2-) --knots 20 --mstop 300 --backend $b --out /tmp/n6-${b// /_}.json --quiet 2>/dev/null
done
python3 -c "
import json
c=json.load(open('/tmp/n6-cpu.json'))
for p in ['float','double']:
    r=json.load(open(f'/tmp/n6-opencl_--precision_{p}.json'))
    rel=max(abs(x-y) for x,y in zip(r['fitted'],c['fitted']))/max(abs(y) for y in c['fitted'])
    same=next((i for i,(a,b) in enumerate(zip(r['path']['learner'],c['path']['learner'])) if a!=b), 300)
    print(f\"negbin counts x 1e6, {p} on {r['timing']['device']}: same path {same}/300, fitted max rel {rel:.2e}, size {r['nuisance']:.8g} (cpu {c['nuisance']:.8g})\")"
