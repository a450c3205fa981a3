# Import packages in reverse libOrder as defined in pyqtgraph/Qt/__init__.py
from PySide2.QtGui import *
from PyQt5.QtGui import *
from PySide6.QtGui import *
from PyQt6.QtGui import *
