// The tiles on react-grid-layout's 12-column grid: fixed when viewing, dragged and resized by their
// header and corner when editing; the new places go back through onLayout.
import { GridLayout, useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import type { ReactNode } from 'react';

export interface Place {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export function DashboardGrid({ places, editing, onLayout, children }: { places: Place[]; editing: boolean; onLayout: (places: Place[]) => void; children: (id: string) => ReactNode }) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layout: Layout = places.map((p) => ({ i: p.id, x: p.x, y: p.y, w: p.w, h: p.h }));
  return (
    <div ref={containerRef} className={editing ? 'dashboard-grid editing' : 'dashboard-grid'}>
      {mounted && (
        <GridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: 12, rowHeight: 60 }}
          dragConfig={{ enabled: editing, handle: '.tile-drag' }}
          resizeConfig={{ enabled: editing }}
          onLayoutChange={(l) => editing && onLayout(l.map((i) => ({ id: i.i, x: i.x, y: i.y, w: i.w, h: i.h })))}
        >
          {places.map((p) => (
            <div key={p.id} className="grid-tile" data-tile-id={p.id}>
              {editing && (
                <div className="tile-drag" title="Drag to move">
                  ⠿ Move
                </div>
              )}
              {children(p.id)}
            </div>
          ))}
        </GridLayout>
      )}
    </div>
  );
}
